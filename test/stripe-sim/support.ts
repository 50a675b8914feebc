/**
 * stripe-sim test support: the simulator on an ephemeral 127.0.0.1 port over a temp folder
 * (sharing a ManualClock with the test; no background sweep; short retry schedule), the official
 * `stripe` client pointed at it, a plain-HTTP webhook receiver that keeps raw bodies and headers
 * (so tests verify signatures with `stripe.webhooks.constructEvent`), and hosted-page helpers
 * that post the page's forms like a browser.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Stripe from "stripe";
import { ManualClock } from "../../src/lib/clock";
import { createLogger } from "../../src/lib/logger";
import { startStripeSim, type StripeSim, type StripeSimOptions } from "../../src/stripe-sim/server";

export const START = "2026-11-20T12:00:00.000Z";

export interface SimFixture {
  root: string;
  clock: ManualClock;
  sim: StripeSim;
  stripe: Stripe;
  /** A `stripe` client for another key. */
  client(key: string): Stripe;
  /** A control route call (`/_sim/...`) with a JSON body. */
  control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Restarts the simulator on the same folder and clock. */
  restart(opts?: Partial<StripeSimOptions>): Promise<StripeSim>;
  cleanup(): Promise<void>;
}

/** Starts the simulator on a new temp folder; refunds and disputes manual unless `opts.settings` says otherwise. */
export async function startFixture(opts: Partial<StripeSimOptions> = {}): Promise<SimFixture> {
  const root = mkdtempSync(join(tmpdir(), "stripe-sim-"));
  const clock = new ManualClock(START);
  const base: StripeSimOptions = {
    dir: join(root, "sim"),
    port: 0,
    clock,
    logger: createLogger("silent"),
    retrySchedule: [30, 60],
    deliveryTimeoutMs: 2000,
    sweepMs: 0,
    settings: { refund_delay_ms: null, dispute_delay_ms: null },
    ...opts,
  };
  const client = (key: string) =>
    new Stripe(key, { host: "127.0.0.1", port: fx.sim.port, protocol: "http", maxNetworkRetries: 0 });
  const fx: SimFixture = {
    root,
    clock,
    sim: await startStripeSim(base),
    stripe: undefined as unknown as Stripe,
    client,
    async control(method, path, body) {
      const res = await fetch(fx.sim.origin + path, {
        method,
        headers: { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() };
    },
    async restart(more = {}) {
      await fx.sim.stop();
      fx.sim = await startStripeSim({ ...base, ...more, port: fx.sim.port });
      fx.stripe = client(fx.sim.secretKey);
      return fx.sim;
    },
    async cleanup() {
      await fx.sim.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
  fx.stripe = client(fx.sim.secretKey);
  return fx;
}

export interface Delivery {
  raw: string;
  signature: string;
  headers: Headers;
}

export interface Receiver {
  url: string;
  received: Delivery[];
  /** Status answered (default 200); a function decides per delivery. */
  answer: number | ((d: Delivery, n: number) => number);
  /** Resolves with the next delivery whose event type is `type` (or any). */
  next(type?: string): Promise<Delivery>;
  stop(): void;
}

/** A plain-HTTP receiver on 127.0.0.1. */
export function startReceiver(): Receiver {
  const received: Delivery[] = [];
  const taken = new Set<number>();
  const waiters: { type?: string; resolve: (d: Delivery) => void }[] = [];
  const typeOf = (d: Delivery) => (JSON.parse(d.raw) as { type: string }).type;
  const offer = (i: number) => {
    const d = received[i]!;
    const w = waiters.findIndex((x) => x.type === undefined || x.type === typeOf(d));
    if (w >= 0) {
      taken.add(i);
      waiters.splice(w, 1)[0]!.resolve(d);
    }
  };
  const srv = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const d: Delivery = {
        raw: await req.text(),
        signature: req.headers.get("stripe-signature") ?? "",
        headers: req.headers,
      };
      received.push(d);
      const status = typeof r.answer === "function" ? r.answer(d, received.length) : r.answer;
      if (status >= 200 && status < 300) offer(received.length - 1);
      return new Response(status < 300 ? "ok" : "no", { status });
    },
  });
  const r: Receiver = {
    url: `http://127.0.0.1:${srv.port}/hooks/stripe`,
    received,
    answer: 200,
    next(type) {
      for (let i = 0; i < received.length; i++) {
        if (taken.has(i) || (type !== undefined && typeOf(received[i]!) !== type)) continue;
        taken.add(i);
        return Promise.resolve(received[i]!);
      }
      return new Promise((resolve) => waiters.push({ type, resolve }));
    },
    stop: () => void srv.stop(true),
  };
  return r;
}

/** Registers `receiver` for every event type; returns its signing secret. */
export async function listen(fx: SimFixture, receiver: Receiver, stripe = fx.stripe): Promise<string> {
  const ep = await stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ["*"] });
  return ep.secret!;
}

/**
 * Verifies a delivery with the official library at the simulator's clock (`constructEventAsync`:
 * under Bun the package's crypto provider is SubtleCrypto, which the synchronous form refuses).
 */
export function verify(fx: SimFixture, d: Delivery, secret: string): Promise<Stripe.Event> {
  return fx.stripe.webhooks.constructEventAsync(
    d.raw,
    d.signature,
    secret,
    300,
    undefined,
    Math.floor(fx.clock.nowMs() / 1000),
  );
}

/** A Checkout Session as Cofre creates one (R$ 150.00 unless `amount`). */
export function createSession(
  fx: SimFixture,
  over: Partial<Stripe.Checkout.SessionCreateParams> = {},
  stripe = fx.stripe,
  opts?: Stripe.RequestOptions,
) {
  return stripe.checkout.sessions.create(
    {
      mode: "payment",
      line_items: [
        { quantity: 1, price_data: { currency: "brl", unit_amount: 15000, product_data: { name: "Pedido 42" } } },
      ],
      success_url: "http://shop.test/ok?session={CHECKOUT_SESSION_ID}",
      cancel_url: "http://shop.test/cancel",
      client_reference_id: "tx_123",
      metadata: { transaction_id: "tx_123" },
      allowed_payment_method_types: ["card"],
      ...over,
    },
    opts,
  );
}

/** Posts a form to a hosted page like a browser (no redirect following). */
export async function postForm(
  url: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string | null; html: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  return { status: res.status, location: res.headers.get("location"), html: await res.text() };
}

/** Pays a session on its hosted page with `number`. */
export function payWithCard(session: Stripe.Checkout.Session, number: string) {
  return postForm(session.url!, { method: "card", number, exp: "12/34", cvc: "123", name: "Maria Silva" });
}

/** The boleto create parameters Cofre sends (payer complete). */
export function boletoParams(amount = 25000): Stripe.PaymentIntentCreateParams {
  return {
    amount,
    currency: "brl",
    allowed_payment_method_types: ["boleto"],
    payment_method_data: {
      type: "boleto",
      billing_details: {
        name: "Maria Silva",
        email: "maria@example.com",
        address: { line1: "Rua A, 10", city: "São Paulo", state: "SP", postal_code: "01001-000", country: "BR" },
      },
      boleto: { tax_id: "52998224725" },
    },
    confirm: true,
    metadata: { transaction_id: "tx_boleto" },
  };
}
