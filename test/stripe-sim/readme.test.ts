/**
 * The README's "Try it with the simulator" block runs as written: `init` and the start line (a
 * temporary folder for ./stripe-sim, an ephemeral port for 12111 given to init, the start line
 * run as a managed child instead of `&`), then, with a paid boleto-to-be, a disputed card and a pending refund made
 * through the official `stripe` client and the hosted page, the block's control calls pay the
 * boleto, close the dispute, fail the refund, drop an event and list the events.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Stripe from "stripe";
import { startServer } from "../foundation/process";
import { boletoParams } from "./support";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "stripe-sim-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function block(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Try it with the simulator"));
  const m = /```sh\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error("README.md has no sh block under 'Try it with the simulator'");
  return m[1]!.trim().split("\n");
}

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

test("README: the simulator block initialises, starts and drives the simulator", async () => {
  const port = freePort();
  const lines = block().map((l) =>
    l.replaceAll("./stripe-sim", join(dir, "stripe-sim")).replaceAll("12111", String(port)),
  );
  const [initLine, startLine, ...rest] = lines;
  expect(initLine).toStartWith("bun src/main.ts stripe-sim init ");
  expect(startLine).toContain("stripe-sim --dir ");
  // init on the test's port (the block's default 12111 is the folder's config): a changed port only.
  const initOnPort = initLine!.replace(/(stripe-sim init \S+)/, `$1 --port ${port}`);
  const init = Bun.spawnSync(["bash", "-euo", "pipefail", "-c", initOnPort], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(`${init.exitCode} ${init.stderr.toString()}`).toBe("0 ");
  // The start line as typed, minus its `&` (the test owns the process); the port comes from init.
  const start = startLine!.replace(/\s*&\s*(#.*)?$/, "");
  const sim = await startServer(["bash", "-c", `exec ${start}`], { dataDir: dir, cwd: ROOT, timeoutMs: 20_000 });
  try {
    expect(sim.port).toBe(port);
    const body = JSON.parse(readFileSync(join(dir, "stripe-sim", "card-provider.json"), "utf8"));
    expect(body.api_base).toBe(`http://127.0.0.1:${port}`);
    const stripe = new Stripe(body.secret_key, { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0 });
    const SIM = `http://127.0.0.1:${port}`;
    await fetch(`${SIM}/_sim/settings`, { method: "POST", body: JSON.stringify({ refund_delay_ms: null }) });
    const boleto = await stripe.paymentIntents.create(boletoParams());
    const session = await stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [{ quantity: 1, price_data: { currency: "brl", unit_amount: 5000, product_data: { name: "x" } } }],
      success_url: "http://shop.test/ok",
    });
    const form = new URLSearchParams({ method: "card", number: "4242424242424242", exp: "12/40", cvc: "123" });
    expect((await fetch(session.url!, { method: "POST", body: form, redirect: "manual" })).status).toBe(303);
    const pi = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;
    const refund = await stripe.refunds.create({ payment_intent: pi, amount: 1000 });
    const dispute = await (await fetch(`${SIM}/_sim/payment_intents/${pi}/dispute`, { method: "POST" })).json();
    const run = Bun.spawnSync(["bash", "-euo", "pipefail", "-c", rest.map((l) => `${l}\necho; echo '%%'`).join("\n")], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", PI: boleto.id, DISPUTE: dispute.id, REFUND: refund.id },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(`${run.exitCode} ${run.stderr.toString()}`).toBe("0 ");
    // One answer per command (the SIM= line prints nothing).
    const outputs = run.stdout
      .toString()
      .split("%%")
      .map((t) => t.trim())
      .filter((t) => t !== "")
      .map((t) => JSON.parse(t));
    expect(outputs.length).toBe(5);
    expect({
      paid: outputs[0].status,
      dispute: outputs[1].status,
      refund: outputs[2].status,
      drop: outputs[3].drop_remaining,
    }).toEqual({ paid: "succeeded", dispute: "won", refund: "failed", drop: 1 });
    expect(outputs[4].data.map((e: { type: string }) => e.type)).toContain("charge.dispute.closed");
    expect((await stripe.paymentIntents.retrieve(boleto.id)).status).toBe("succeeded");
  } finally {
    expect(await sim.stop()).toBe(0);
  }
}, 60_000);
