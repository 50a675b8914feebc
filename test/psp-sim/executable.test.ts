/**
 * `cofre psp-sim` inside the compiled executable: `bun build --compile` must keep the X.509
 * library loadable (its Reflect polyfill order once broke only there), so init writes the folder
 * and the simulator answers over mTLS from `dist/cofre` alone.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../foundation/process";

const root = mkdtempSync(join(tmpdir(), "psp-sim-exe-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("the executable runs psp-sim init and serves the simulator over mTLS", async () => {
  const exe = join(root, "cofre");
  const build = Bun.spawnSync(
    ["bun", "build", join(import.meta.dir, "../../src/main.ts"), "--compile", "--outfile", exe],
    { stdout: "pipe", stderr: "pipe" },
  );
  expect(`${build.exitCode} ${build.exitCode === 0 ? "" : build.stderr.toString()}`).toBe("0 ");
  const init = Bun.spawnSync([exe, "psp-sim", "init", join(root, "sim")], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(`${init.exitCode} ${init.stderr.toString()}`).toBe("0 ");
  expect(init.stdout.toString()).toContain("/pix-provider'");
  const body = JSON.parse(readFileSync(join(root, "sim", "pix-provider.json"), "utf8"));
  const sim = await startServer([exe, "psp-sim", "--dir", join(root, "sim"), "--port", "0"], {
    dataDir: root,
    cwd: root,
    timeoutMs: 20_000,
  });
  try {
    const res = await fetch(`https://127.0.0.1:${sim.port}/_sim/state`, {
      tls: { cert: body.certificate, key: body.private_key, ca: body.ca_certificates },
    } as RequestInit);
    expect(res.status).toBe(200);
    expect((await res.json()).counts).toEqual({ cobs: 0, pix: 0, devolucoes: 0, sends: 0, callbacks: 0 });
  } finally {
    expect(await sim.stop()).toBe(0);
  }
}, 180_000);
