/**
 * The single executable (issue "Runtime foundation" part 9): `bun run build`'s command compiles
 * `cofre`, which is copied alone into an empty folder and started there on an ephemeral port.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json";
import { pdfText } from "../support/pdf";
import { serverEnv, testDeps, TEST_PG } from "../support/backend";
import { testDb } from "../support/test-db";
import { startServer, type RunningServer } from "./process";

const root = mkdtempSync(join(tmpdir(), "cofre-exe-"));
const runDir = join(root, "empty");
const dataDir = join(root, "data");
let srv: RunningServer;
let buildOutput = "";

beforeAll(async () => {
  // The build script, pointed at a private output file so parallel runs never share dist/cofre.
  expect(pkg.scripts.build).toContain("--compile");
  expect(pkg.scripts.build).toContain("--outfile dist/cofre");
  const outfile = join(root, "build", "cofre");
  const args = pkg.scripts.build.replace("--outfile dist/cofre", `--outfile ${outfile}`).split(/\s+/);
  const build = Bun.spawn(args, { cwd: join(import.meta.dir, "../.."), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = [
    await new Response(build.stdout).text(),
    await new Response(build.stderr).text(),
    await build.exited,
  ];
  buildOutput = out + err;
  expect(`${code} ${code === 0 ? "" : buildOutput}`).toBe("0 ");
  mkdirSync(runDir);
  copyFileSync(outfile, join(runDir, "cofre"));
  Bun.spawnSync(["chmod", "+x", join(runDir, "cofre")]);
  // An owner for the receipt test, created by the executable's own `init` in the data folder.
  const init = Bun.spawnSync(
    [
      join(runDir, "cofre"),
      "init",
      "--email",
      "owner@example.com",
      "--password",
      "exe password 1",
      "--account-name",
      "Padaria Pão Quente",
    ],
    {
      cwd: runDir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...serverEnv(dataDir), LOG_LEVEL: "silent" },
    },
  );
  expect(`${init.exitCode} ${init.exitCode === 0 ? "" : init.stderr.toString()}`).toBe("0 ");
  srv = await startServer([join(runDir, "cofre")], { cwd: runDir, dataDir, timeoutMs: 20_000 });
}, 180_000);

afterAll(async () => {
  if (srv) await srv.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("dist/cofre run alone from an empty folder", () => {
  test("readyz answers 200 once the embedded migrations ran", async () => {
    const r = await fetch(`${srv.base}/readyz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: "ready" });
    expect(r.headers.get("x-request-id")).toMatch(/^req_/);
  });

  test("docs/json is the OpenAPI document and docs loads the embedded UI bundle", async () => {
    const spec = await fetch(`${srv.base}/docs/json`);
    expect(spec.status).toBe(200);
    const doc = (await spec.json()) as any;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths["/v1/ping"]).toBeDefined();
    const page = await fetch(`${srv.base}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toMatch(/https?:\/\//);
    const js = await fetch(`${srv.base}/docs/assets/scalar.js`);
    expect(js.status).toBe(200);
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });

  test("the dashboard page and its embedded script and styles are served with the dashboard CSP, and its login works", async () => {
    const page = await fetch(`${srv.base}/dashboard`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await page.text();
    const files = [...html.matchAll(/\/dashboard\/assets\/([^"]+)/g)].map((m) => m[1]!);
    expect(files.filter((f) => f.endsWith(".js")).length).toBe(1);
    expect(files.filter((f) => f.endsWith(".css")).length).toBe(1);
    for (const f of files) {
      const r = await fetch(`${srv.base}/dashboard/assets/${f}`);
      expect(r.status).toBe(200);
      const text = await r.text();
      // The app's own code (its login form's field) and uPlot's styles are inside.
      expect(text).toContain(f.endsWith(".js") ? "/v1/auth/session" : ".uplot");
    }
    const login = await fetch(`${srv.base}/v1/auth/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "owner@example.com", password: "exe password 1" }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as any).account_name).toBe("Padaria Pão Quente");
  });

  test("an unknown route is the 404 envelope with X-Request-Id", async () => {
    const r = await fetch(`${srv.base}/v1/nope`, { headers: { "x-request-id": "exe-404" } });
    expect(r.status).toBe(404);
    expect(r.headers.get("x-request-id")).toBe("exe-404");
    expect(await r.json()).toEqual({
      error: { type: "not_found_error", code: "not_found", message: "No route matches this method and path." },
      request_id: "exe-404",
    });
  });

  test("pino writes one JSON line per request to stdout", async () => {
    await fetch(`${srv.base}/healthz`, { headers: { "x-request-id": "exe-log" } });
    const line = await srv.waitForLine((l) => l.request_id === "exe-log");
    expect(line).toMatchObject({ msg: "request", method: "GET", route: "/healthz", status: 200 });
  });

  test("a paid payment's receipt and its boleto are PDFs in the embedded font, Portuguese accents included", async () => {
    const json = async (
      path: string,
      init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
    ) => {
      const r = await fetch(`${srv.base}${path}`, {
        method: init.method ?? "GET",
        headers: { "content-type": "application/json", ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { status: r.status, body: (await r.json()) as any };
    };
    const login = await json("/v1/auth/login", {
      method: "POST",
      body: { email: "owner@example.com", password: "exe password 1" },
    });
    expect(login.status).toBe(200);
    const issued = await json("/v1/api-keys", {
      method: "POST",
      headers: { authorization: `Bearer ${login.body.access_token}` },
      body: { test: true },
    });
    expect(issued.status).toBe(201);
    const apikey = issued.body.apiKey as string;
    const created = await json("/v1/payments", {
      method: "POST",
      headers: { apikey },
      body: { amount: 123456, paymentMethods: ["PIX", "BOLETO"], idempotencyKey: "exe-receipt-0001" },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const boleto = await fetch(`${srv.base}/v1/boletos/${id}.pdf`);
    expect(boleto.status).toBe(200);
    const boletoText = await pdfText(new Uint8Array(await boleto.arrayBuffer()));
    for (const s of ["Beneficiário", "Padaria Pão Quente", "Ficha de Compensação", "R$ 1.234,56"])
      expect(boletoText).toContain(s);
    expect(
      (await json(`/v1/test_helpers/charges/${id}/pay`, { method: "POST", headers: { apikey }, body: {} })).status,
    ).toBe(200);
    const receipt = await fetch(`${srv.base}/v1/payments/${id}/receipt`, {
      headers: { apikey, accept: "application/pdf" },
    });
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get("content-disposition")).toBe(`attachment; filename="${id}.pdf"`);
    const text = await pdfText(new Uint8Array(await receipt.arrayBuffer()));
    for (const s of ["Comprovante de pagamento", "Situação: Pago (PAID)", "Valor: R$ 1.234,56", "SANDBOX"])
      expect(text).toContain(s);
  });

  test("nothing was written beside the executable; the database is in COFRE_DATA_DIR (PostgreSQL: at COFRE_DATABASE_URL)", async () => {
    expect(readdirSync(runDir)).toEqual(["cofre"]);
    if (!TEST_PG) return void expect(statSync(join(dataDir, "cofre.db")).size).toBeGreaterThan(0);
    expect(existsSync(join(dataDir, "cofre.db"))).toBe(false);
    const deps = testDeps({ dataDir, config: { logLevel: "silent" } });
    expect(await testDb(deps).all("select name from accounts")).toEqual([{ name: "Padaria Pão Quente" }]);
    await deps.store.close();
  });

  test("SIGTERM stops it with exit code 0", async () => {
    const code = await srv.stop();
    srv = undefined as never;
    expect(code).toBe(0);
  });
});
