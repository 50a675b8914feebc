/**
 * The single executable (issue "Runtime foundation" part 9): `bun run build`'s command compiles
 * `cofre`, which is copied alone into an empty folder and started there on an ephemeral port.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json";
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
  const [out, err, code] = [await new Response(build.stdout).text(), await new Response(build.stderr).text(), await build.exited];
  buildOutput = out + err;
  expect(`${code} ${code === 0 ? "" : buildOutput}`).toBe("0 ");
  mkdirSync(runDir);
  copyFileSync(outfile, join(runDir, "cofre"));
  Bun.spawnSync(["chmod", "+x", join(runDir, "cofre")]);
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

  test("nothing was written beside the executable; the database is in COFRE_DATA_DIR", () => {
    expect(readdirSync(runDir)).toEqual(["cofre"]);
    expect(statSync(join(dataDir, "cofre.db")).size).toBeGreaterThan(0);
  });

  test("SIGTERM stops it with exit code 0", async () => {
    const code = await srv.stop();
    srv = undefined as never;
    expect(code).toBe(0);
  });
});
