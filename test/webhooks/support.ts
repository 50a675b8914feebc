/** Test helpers of the webhooks group: a real HTTP receiver on 127.0.0.1 and event producers. */
import { emitCanonical, emitLegacy, emitMed } from "../../src/domain/events/emit";
import { configureWebhookRuntime } from "../../src/domain/webhooks/runtime";
import type { Harness } from "../support/harness";

export interface Received {
  headers: Record<string, string>;
  body: string;
  path: string;
}

export interface Receiver {
  url: string;
  port: number;
  requests: Received[];
  /** Decides the response of request number `n` (0-based); default 200 "ok". */
  respond: (n: number, req: Received) => Response | Promise<Response>;
  stop: () => void;
}

/** Starts a receiver on 127.0.0.1 (port 0) that records every request. */
export function startReceiver(respond?: Receiver["respond"]): Receiver {
  const r: Receiver = {
    url: "",
    port: 0,
    requests: [],
    respond: respond ?? (() => new Response("ok")),
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => {
      const rec: Received = {
        headers: Object.fromEntries(req.headers.entries()),
        body: await req.text(),
        path: new URL(req.url).pathname,
      };
      const n = r.requests.length;
      r.requests.push(rec);
      return r.respond(n, rec);
    },
  });
  r.port = server.port!;
  r.url = `http://127.0.0.1:${server.port}/hook`;
  return r;
}

/** Fixed jitter (factor 1) and a short timeout so tests are deterministic and fast. */
export function deterministic(h: Harness, timeoutMs = 2000): void {
  configureWebhookRuntime(h.deps, { random: () => 0.5, timeoutMs });
}

/** A minimal public charge object for event payloads. */
export function chargeObject(id = "ch_0193abc") {
  return { id, object: "charge", amount: 1500, currency: "BRL", status: "paid", payment_method: "pix" };
}

/** Emits `charge.paid` (canonical) for the scope in its own unit of work; returns the evt_ id. */
export function emitChargePaid(
  h: Harness,
  accountId: string,
  livemode = false,
  object: unknown = chargeObject(),
): Promise<string> {
  return h.deps.store.tx((uow) => emitCanonical(h.deps, uow, { accountId, livemode }, "charge.paid", object));
}

/** Emits legacy `payment.completed`; returns the evt_ id. */
export function emitPaymentCompleted(
  h: Harness,
  accountId: string,
  livemode = false,
  transactionId: string | null = null,
): Promise<string> {
  return h.deps.store.tx((uow) =>
    emitLegacy(h.deps, uow, { accountId, livemode, transactionId }, "payment.completed", {
      transactionId: transactionId ?? "0193deadbeef",
      amount: 1500,
      status: "PAID",
      previousStatus: "WAITING_PAYMENT",
      paidWith: "PIX",
      platformFee: 30,
      occurredAt: "2026-11-20T12:00:00.000Z",
    }),
  );
}

/** Emits `med_case.created`; returns the evt_ id. */
export function emitMedCreated(h: Harness, accountId: string, livemode = false): Promise<string> {
  return h.deps.store.tx((uow) =>
    emitMed(h.deps, uow, { accountId, livemode }, "med_case.created", {
      id: "med_1",
      object: "med_case",
      status: "open",
    }),
  );
}

/** Registers an endpoint through the API; returns the 201 body. */
export async function register(h: Harness, key: string, url: string, events: string[] = ["charge.paid"]) {
  const r = await h.call("POST", "/v1/webhooks/endpoints", { key, body: { url, events } });
  if (r.status !== 201) throw new Error(`register failed: ${r.status} ${r.text}`);
  return r.body as { id: string; secret: string; url: string; events: string[]; status: string };
}

/** The single delivery of the caller's scope (asserts there is exactly one). */
export async function onlyDelivery(h: Harness, key: string) {
  const r = await h.call("GET", "/v1/webhooks/deliveries", { key });
  if (r.body.data.length !== 1) throw new Error(`expected 1 delivery, got ${r.body.data.length}`);
  return r.body.data[0];
}
