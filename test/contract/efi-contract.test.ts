/**
 * The Efí part of `bun run check:bcb-contract` (scripts/bcb-contract/efi.ts): a live run of the
 * "efi send (cashout refund)" scenario (psp-sim and Cofre as child processes) has its Efí
 * exchanges (`PUT /v3/gn/pix/{idEnvio}`, `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`, the
 * `tipo: SOLICITACAO` callback) conform to the schemas written from the research notes, and
 * planted defects (a valor not in reais, a favorecido with both CPF and CNPJ, a 201 without e2eId,
 * an undeclared status, a callback without gnExtras.idEnvio) are violations naming the field.
 * The standard's exchanges of the same run never reach the Efí schemas, and Efí's never the BCB
 * document. Needs no official file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { LoggedExchange } from "../../scripts/bcb-contract/check";
import { EfiChecker, formatEfiReport, isEfiExchange } from "../../scripts/bcb-contract/efi";
import { runScenarios, type ScenarioRun } from "../../scripts/bcb-contract/scenarios";

let run: ScenarioRun;
let lines: LoggedExchange[];
beforeAll(async () => {
  run = await runScenarios(["efi send (cashout refund)"]);
  lines = readFileSync(run.exchangeLog, "utf8")
    .trim()
    .split("\n")
    .map((l, i) => ({ source: "run", line: i + 1, exchange: JSON.parse(l) }));
}, 90_000);
afterAll(() => run?.cleanup());

const efiOnly = () => lines.filter((l) => isEfiExchange(l.exchange));
/** The check of the run's Efí exchanges after `edit` changed the first one `pick` selects. */
function checkPlanted(pick: (e: any) => boolean, edit: (e: any) => void) {
  const copy = structuredClone(efiOnly());
  const target = copy.find((l) => pick(l.exchange));
  expect(target).toBeDefined();
  edit(target!.exchange);
  return new EfiChecker().check(copy);
}
const put201 = (e: any) => e.request.method === "PUT" && e.response.status === 201;
const callback = (e: any) => e.kind === "callback";

describe("a real live run through an efi connection", () => {
  test("the scenario succeeds and every Efí exchange conforms: PUT, GET by idEnvio, the send callback, the 422 refusal", () => {
    expect(run.results.map((r) => [r.name, r.outcome])).toEqual([
      ["webhook registration", "ok"],
      ["efi send (cashout refund)", "ok"],
    ]);
    const report = new EfiChecker().check(efiOnly());
    expect(report.violations).toEqual([]);
    const ops = Object.fromEntries(report.operations.map((o) => [o.operation, o.requests]));
    expect(ops["PUT /v3/gn/pix/{idEnvio}"]).toBe(2);
    expect(ops["GET /v2/gn/pix/enviados/id-envio/{idEnvio}"]).toBeGreaterThanOrEqual(1);
    expect(ops["POST {webhookUrl}/pix (Efí send result)"]).toBeGreaterThanOrEqual(1);
    expect(efiOnly().some((l) => l.exchange.response.status === 422)).toBe(true);
    expect(formatEfiReport(report)).toContain("no violations");
  });

  test("the standard's routes of the same run (under /v2) are left to the BCB document", () => {
    const standard = lines
      .filter((l) => !isEfiExchange(l.exchange) && l.exchange.kind === "api")
      .map((l) => l.exchange.request.path);
    expect(standard.some((p) => p?.startsWith("/cob/"))).toBe(true);
    expect(standard.some((p) => p?.startsWith("/webhook/"))).toBe(true);
    expect(standard.filter((p) => p?.startsWith("/v3/") || p?.startsWith("/v2/gn/"))).toEqual([]);
  });
});

describe("planted defects are violations naming the field", () => {
  test("a valor not in reais with two decimals", () => {
    const r = checkPlanted(put201, (e) => (e.request.body.valor = "5,00"));
    expect(r.violations.map((v) => [v.operation, v.side, v.message])).toEqual([
      ["PUT /v3/gn/pix/{idEnvio}", "request", 'request body/valor: must match pattern "^\\d{1,10}\\.\\d{2}$"'],
    ]);
  });

  test("a favorecido with both cpf and cnpj", () => {
    const r = checkPlanted(put201, (e) => (e.request.body.favorecido.cnpj = "11222333000181"));
    expect(r.violations.length).toBeGreaterThan(0);
    expect(r.violations.every((v) => v.message.startsWith("request body/favorecido"))).toBe(true);
  });

  test("a 201 without e2eId, and a status the operation does not declare", () => {
    const missing = checkPlanted(put201, (e) => delete e.response.body.e2eId);
    expect(missing.violations.map((v) => v.side)).toContain("response");
    const teapot = checkPlanted(put201, (e) => (e.response.status = 418));
    expect(teapot.violations.map((v) => v.message)).toEqual([
      "status 418: not declared for PUT /v3/gn/pix/{idEnvio} (declared: 201, 400, 401, 403, 409, 422, 500, 503, 504)",
    ]);
  });

  test("a send callback without gnExtras.idEnvio, and an idEnvio breaking its pattern", () => {
    const r = checkPlanted(callback, (e) => (e.request.body.pix[0].gnExtras = { erro: {} }));
    expect(r.violations.map((v) => v.message)).toEqual([
      "callback body/pix/0/gnExtras: must have required property 'idEnvio'",
    ]);
    const bad = checkPlanted(put201, (e) => (e.request.path = "/v3/gn/pix/not-valid!"));
    expect(bad.violations.map((v) => v.message)).toContain(
      'path parameter idEnvio: must match pattern "^[a-zA-Z0-9]{1,35}$"',
    );
  });
});
