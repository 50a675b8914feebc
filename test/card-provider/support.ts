/**
 * Card provider test support: `cofre stripe-sim` on an ephemeral 127.0.0.1 port (its own folder in
 * a temp dir, sharing the harness's ManualClock so event signatures and object times agree), and a
 * harness whose app listens on 127.0.0.1 with COFRE_PUBLIC_URL pointing at it, so the simulator's
 * signed events reach `POST /v1/provider-webhooks/stripe/{id}` over real HTTP. `settle` drains
 * Cofre's jobs until a condition holds (events arrive asynchronously: wait for them, not for time).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "bun:test";
import { createLogger } from "../../src/lib/logger";
import { startStripeSim, type StripeSim, type StripeSimOptions } from "../../src/stripe-sim/server";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { testDb } from "../support/test-db";

export const OPERATOR_TOKEN = "op-token-card-provider-tests-0123456789";

export interface CardEnv {
  h: Harness;
  sim: StripeSim;
  /** Cofre's own origin (`http://127.0.0.1:<port>`). */
  base: string;
  account: SeededAccount;
  /** The card connection's view after the PUT. */
  connection: any;
  /** Calls the simulator's control routes (`/_sim/...`). */
  control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Drains Cofre's jobs until `done()` holds (at most `ms` of real time); throws when it never does. */
  settle<T>(done: () => Promise<T | undefined | null | false>, ms?: number): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts the simulator and a listening harness with one account connected to it. `connect: false` leaves the account
 * unconnected.
 */
export async function startCardEnv(
  opts: { sim?: Partial<StripeSimOptions>; connect?: boolean; subscribeAllEvents?: boolean } = {},
): Promise<CardEnv> {
  const root = mkdtempSync(join(tmpdir(), "stripe-sim-"));
  // The clock starts at the real now: Stripe signatures carry a timestamp checked within 5 minutes.
  const h = createHarness({ operatorToken: OPERATOR_TOKEN, webhookAllowPrivate: true }, new Date().toISOString());
  h.app.listen({ port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${h.app.server!.port}`;
  h.deps.config.publicUrl = base;
  h.deps.config.checkoutUrlBase = `${base}/c`;
  const sim = await startStripeSim({
    dir: join(root, "sim"),
    port: 0,
    clock: h.clock,
    logger: createLogger("silent"),
    sweepMs: 0,
    retrySchedule: [50, 100, 200],
    settings: { refund_delay_ms: null as unknown as number, dispute_delay_ms: null as unknown as number },
    ...opts.sim,
  });
  const account = await h.seedAccount({
    name: "Loja dos Cartões",
    subscribeAllEvents: opts.subscribeAllEvents ?? true,
  });
  const env: CardEnv = {
    h,
    sim,
    base,
    account,
    connection: null,
    async control(method, path, body) {
      const res = await fetch(`${sim.origin}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async settle(done, ms = 5000) {
      const until = Date.now() + ms;
      for (;;) {
        await h.deps.jobs.drain();
        const v = await done();
        if (v) return v as never;
        if (Date.now() > until) throw new Error("the condition never held");
        await Bun.sleep(10);
      }
    },
    async stop() {
      await sim.stop();
      await h.app.stop(true);
      rmSync(root, { recursive: true, force: true });
    },
  };
  if (opts.connect ?? true) {
    const r = await connect(env, sim.secretKey);
    expect(r.status).toBe(200);
    env.connection = r.body;
  }
  return env;
}

/** PUT the account's card connection with `secretKey` at the simulator. */
export function connect(env: CardEnv, secretKey: string, apiBase = env.sim.origin) {
  return env.h.call("PUT", `/v1/operator/accounts/${env.account.accountId}/card-provider`, {
    bearer: OPERATOR_TOKEN,
    body: { type: "stripe", secret_key: secretKey, api_base: apiBase },
  });
}

/** Creates a live payment through the API (201 expected). */
export async function livePayment(env: CardEnv, body: Record<string, unknown>) {
  const r = await env.h.call("POST", "/v1/payments", {
    key: env.account.liveKey,
    body: { amount: 5000, paymentMethods: ["CREDIT_CARD"], idempotencyKey: `card-${crypto.randomUUID()}`, ...body },
  });
  return r;
}

/** How many Stripe events of `type` Cofre has taken (verified and recorded). */
export async function eventsTaken(env: CardEnv, type: string): Promise<number> {
  return (await testDb(env.h.deps).all("select event_id from card_provider_events where type = ?", type)).length;
}

/** The stored transaction row of `id`. */
export function txRow(env: CardEnv, id: string) {
  return env.h.deps.store.read.charges.byId(id);
}
