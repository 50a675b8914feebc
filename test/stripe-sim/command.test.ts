/**
 * `cofre stripe-sim` as a command of the executable's entry point: `init` writes the folder and
 * the operator body (mode 0600) and prints the connect command; the simulator started on that
 * folder answers the official `stripe` client with the key init wrote; bad arguments exit 2.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Stripe from "stripe";
import { startServer } from "../foundation/process";

const root = mkdtempSync(join(tmpdir(), "stripe-sim-cmd-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const main = join(import.meta.dir, "../../src/main.ts");

test("init writes card-provider.json and the started simulator accepts its key", async () => {
  const dir = join(root, "sim");
  const init = Bun.spawnSync(["bun", main, "stripe-sim", "init", dir, "--account", "acct_1"], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(`${init.exitCode} ${init.stderr.toString()}`).toBe("0 ");
  const out = init.stdout.toString();
  expect(out).toContain("/v1/operator/accounts/acct_1/card-provider'");
  const bodyFile = join(dir, "card-provider.json");
  expect(statSync(bodyFile).mode & 0o777).toBe(0o600);
  const body = JSON.parse(readFileSync(bodyFile, "utf8"));
  expect(Object.keys(body).sort()).toEqual(["api_base", "secret_key", "type"]);
  expect({ type: body.type, api_base: body.api_base }).toEqual({ type: "stripe", api_base: "http://127.0.0.1:12111" });
  expect(body.secret_key).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
  const sim = await startServer(["bun", main, "stripe-sim", "--dir", dir, "--port", "0"], {
    dataDir: root,
    cwd: root,
    timeoutMs: 20_000,
  });
  try {
    const stripe = new Stripe(body.secret_key, {
      host: "127.0.0.1",
      port: sim.port,
      protocol: "http",
      maxNetworkRetries: 0,
    });
    const acct = await stripe.accounts.retrieveCurrent();
    expect(acct.id).toStartWith("acct_");
    const state = await (await fetch(`http://127.0.0.1:${sim.port}/_sim/state`)).json();
    expect(state.counts).toEqual({
      "checkout.session": 0,
      payment_intent: 0,
      charge: 0,
      refund: 0,
      dispute: 0,
      webhook_endpoint: 0,
    });
  } finally {
    expect(await sim.stop()).toBe(0);
  }
}, 60_000);

test("a bad port exits 2 with the usage", () => {
  const r = Bun.spawnSync(["bun", main, "stripe-sim", "--port", "99999"], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(r.exitCode).toBe(2);
  expect(r.stderr.toString()).toContain("cofre stripe-sim: --port must be 0-65535");
  expect(r.stderr.toString()).toContain("usage:");
});
