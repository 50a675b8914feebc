/**
 * `bun run check:bcb-contract` (issue 14 §5): a small live run (psp-sim and Cofre as child
 * processes) passes the check against the official BCB OpenAPI; planted defects in a copy of that
 * run's exchange log (a bad request body, a bad response body, an undeclared status) make the
 * script exit 1 naming the field; the official file is required; each named correction still
 * finds its defect in the document, and without them a real run fails (so they are needed).
 * The official file is not in this repository (never copied; `.ci/run` runs the check when
 * `../shared/ref/bcb-pix-api/openapi.yaml` exists): without it (or BCB_PIX_OPENAPI) only the
 * "is required" test runs, and the file says so on stderr in capitals, never silently.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ContractChecker, formatReport, readExchangeLog } from "../../scripts/bcb-contract/check";
import { runScenarios, type ScenarioRun } from "../../scripts/bcb-contract/scenarios";
import { CORRECTIONS, loadSpec } from "../../scripts/bcb-contract/spec";

const ROOT = resolve(import.meta.dir, "../..");
const SPEC = process.env.BCB_PIX_OPENAPI ?? resolve(ROOT, "../shared/ref/bcb-pix-api/openapi.yaml");
const HAVE_SPEC = existsSync(SPEC);
if (!HAVE_SPEC)
  console.error(
    `\nBCB CONTRACT TESTS NOT RUN: the official BCB API Pix OpenAPI is missing at ${SPEC} (set BCB_PIX_OPENAPI to its path); only "the official file is required" runs.\n`,
  );

const spec = HAVE_SPEC ? loadSpec(SPEC) : (null as never);
let run: ScenarioRun;
let lines: any[];
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "bcb-contract-test-"));
  if (!HAVE_SPEC) return;
  run = await runScenarios(["create", "pay by callback", "cancel"]);
  lines = readFileSync(run.exchangeLog, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}, 60_000);
afterAll(() => {
  run?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** A copy of the run's log where `edit` changed the first line `pick` selects; returns its file. */
function planted(pick: (e: any) => boolean, edit: (e: any) => void): string {
  const copy = structuredClone(lines);
  const target = copy.find(pick);
  expect(target).toBeDefined();
  edit(target);
  const file = join(dir, `planted-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, `${copy.map((e) => JSON.stringify(e)).join("\n")}\n`);
  return file;
}

let checker: ContractChecker;
/** The check (in process; the script's exit code is tested once) of a planted copy: its report text. */
function checkPlanted(pick: (e: any) => boolean, edit: (e: any) => void) {
  checker ??= new ContractChecker(spec);
  const report = checker.check(readExchangeLog(planted(pick, edit)));
  return { violations: report.violations.length, stdout: formatReport(spec, report) };
}

async function script(args: string[]) {
  const p = Bun.spawn(["bun", "scripts/check-bcb-contract.ts", ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { code, stdout, stderr };
}

const putCob = (e: any) =>
  e.kind === "api" && e.request.method === "PUT" && e.route === "/cob/{txid}" && e.response.status === 201;
const getCob = (e: any) =>
  e.kind === "api" && e.request.method === "GET" && e.route === "/cob/{txid}" && e.response.status === 200;

describe.if(HAVE_SPEC)("a real live run", () => {
  test("every scenario succeeds and every exchange conforms to the official OpenAPI", async () => {
    expect(run.results.map((r) => [r.name, r.outcome])).toEqual([
      ["webhook registration", "ok"],
      ["create", "ok"],
      ["pay by callback", "ok"],
      ["cancel", "ok"],
    ]);
    const r = await script([SPEC, run.exchangeLog]);
    expect(r.stdout).toContain("no violations");
    expect(r.code).toBe(0);
    const report = new ContractChecker(spec).check(readExchangeLog(run.exchangeLog));
    const ops = Object.fromEntries(report.operations.map((o) => [o.operation, o.requests]));
    expect(ops["PUT /webhook/{chave}"]).toBe(1);
    expect(ops["PUT /cob/{txid}"]).toBe(3);
    expect(ops["PATCH /cob/{txid}"]).toBe(1);
    expect(ops["GET /cob/{txid}"]).toBeGreaterThanOrEqual(1);
    expect(ops["POST {webhookUrl}/pix (callback of PUT /webhook/{chave})"]).toBe(1);
  });

  test("without the named corrections the same run fails on the document's own defects (location format, CPF pattern)", () => {
    const report = new ContractChecker(loadSpec(SPEC, [])).check(readExchangeLog(run.exchangeLog));
    const messages = report.violations.map((v) => v.message).join("\n");
    expect(messages).toContain('/location: must match format "uri"');
    expect(messages).toContain("/devedor/cpf: must match pattern");
  });

  test("each correction still finds its defect in the official document", () => {
    expect(spec.applied.map((c) => c.name)).toEqual(CORRECTIONS.map((c) => c.name));
    for (const c of spec.applied) expect([c.name, c.changed > 0]).toEqual([c.name, true]);
  });
});

describe.if(HAVE_SPEC)("planted violations", () => {
  test("a request body whose valor.original is not in reais with two decimals makes the script exit 1 naming the field", async () => {
    const r = await script([SPEC, planted(putCob, (e) => (e.request.body.valor.original = "12.3"))]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("1 violation(s):");
    expect(r.stdout).toContain("PUT /cob/{txid} [request] request body/valor/original: must match pattern");
  });

  test("a request body whose calendario.expiracao is a string is a violation naming the field", async () => {
    const r = checkPlanted(putCob, (e) => (e.request.body.calendario.expiracao = "3600"));
    expect(r.violations).toBe(1);
    expect(r.stdout).toContain("request body/calendario/expiracao: must be integer");
  });

  test("a response whose cob status is outside the enum is a violation naming the field", async () => {
    const r = checkPlanted(getCob, (e) => (e.response.body.status = "PAGA"));
    expect(r.violations).toBeGreaterThanOrEqual(1); // once per allOf branch that declares the enum
    expect(r.stdout).toContain(
      "GET /cob/{txid} [response] response body (status 200)/status: must be equal to one of the allowed values",
    );
  });

  test("a response missing a required field is a violation naming it", async () => {
    const r = checkPlanted(putCob, (e) => delete e.response.body.txid);
    expect(r.violations).toBe(1);
    expect(r.stdout).toContain(
      "PUT /cob/{txid} [response] response body (status 201): must have required property 'txid'",
    );
  });

  test("a status the operation does not declare is a violation naming the status and the declared ones", async () => {
    const r = checkPlanted(putCob, (e) => (e.response.status = 418));
    expect(r.violations).toBe(1);
    expect(r.stdout).toContain(
      "PUT /cob/{txid} [response] status 418: not declared for PUT /cob/{txid} (declared: 201, 400, 401, 403, 404, 503)",
    );
  });

  test("an undeclared query parameter and a revisao that is not an integer are violations naming them", () => {
    const unknown = checkPlanted(getCob, (e) => (e.request.url += "?gw-dev-app-key=x"));
    expect(unknown.violations).toBe(1);
    expect(unknown.stdout).toContain(
      "GET /cob/{txid} [request] query parameter gw-dev-app-key: not declared for GET /cob/{txid}",
    );
    const revisao = checkPlanted(getCob, (e) => (e.request.url += "?revisao=abc"));
    expect(revisao.violations).toBe(1);
    expect(revisao.stdout).toContain("query parameter revisao: must be integer");
  });

  test("a path outside the document and a txid breaking its pattern are violations", async () => {
    const other = checkPlanted(putCob, (e) => (e.request.path = "/cobranca/abc"));
    expect(other.violations).toBe(1);
    expect(other.stdout).toContain("no operation of the document matches PUT /cobranca/abc");
    const short = checkPlanted(putCob, (e) => (e.request.path = "/cob/short"));
    expect(short.violations).toBe(1);
    expect(short.stdout).toContain("path parameter txid: must match pattern");
  });
});

describe.if(HAVE_SPEC)("an empty log", () => {
  test("checks nothing and exits 1 saying so", async () => {
    const file = join(dir, "empty.jsonl");
    writeFileSync(file, "");
    const r = await script([SPEC, file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("nothing was checked: the logs hold no API Pix exchange");
  });
});

describe("the official file", () => {
  test("is required: no path and a missing path exit 2 with a clear message", async () => {
    const none = await script([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("the official OpenAPI file is required");
    const missing = await script([join(dir, "nowhere/openapi.yaml")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("the official BCB API Pix OpenAPI was not found at");
  });

  test.if(HAVE_SPEC)("must be an OpenAPI document", async () => {
    const file = join(dir, "not-openapi.yaml");
    writeFileSync(file, "hello: world\n");
    const r = await script([file, run.exchangeLog]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is not an OpenAPI 3 document");
  });
});
