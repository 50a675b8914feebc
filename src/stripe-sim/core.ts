/**
 * stripe-sim shared shapes: the environment every handler receives (store, clock, scheduler,
 * listening origin, settings), a handler's reply, the context of an authenticated API call, and
 * typed loads of stored objects by kind.
 */
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { noSuch } from "./errors";
import type { Params } from "./form";
import type { DisputeDoc } from "./dispute-objects";
import type { SessionDoc } from "./objects";
import type { BalanceTransactionDoc, ChargeDoc, PaymentIntentDoc, RefundDoc } from "./payment-objects";
import type { Scheduler } from "./scheduler";
import type { AccountRow, StripeSimStore } from "./store";
import type Stripe from "stripe";

export interface SimEnv {
  store: StripeSimStore;
  clock: Clock;
  scheduler: Scheduler;
  logger: Logger;
  /** `http://host:port`; set once listening (hosted page and voucher URLs). */
  origin: string;
  /** Milliseconds before each retry of a failed delivery (its length bounds the attempts). */
  retrySchedule: number[];
  /** Timeout of one delivery attempt, ms. */
  deliveryTimeoutMs: number;
  /** Runs `task` in the background; `stop()` waits for it. */
  background(task: () => Promise<unknown>): void;
}

/** What a handler answers: status and JSON body, or raw text (HTML pages, PDFs, redirects). */
export interface Reply {
  status: number;
  body?: unknown;
  text?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** Context of an authenticated API call. */
export interface ApiCtx {
  env: SimEnv;
  account: AccountRow;
  params: Record<string, string>;
  /** Body (POST) or query (GET/DELETE) parameters. */
  form: Params;
  requestId: string;
  idempotencyKey: string | null;
}

/** The document type of each stored kind. */
export interface Kinds {
  "checkout.session": SessionDoc;
  payment_intent: PaymentIntentDoc;
  charge: ChargeDoc;
  balance_transaction: BalanceTransactionDoc;
  refund: RefundDoc;
  dispute: DisputeDoc;
  webhook_endpoint: Stripe.WebhookEndpoint;
}
export type Kind = keyof Kinds;

/** Stored object of `kind` with `id` in `account`, or 404 `resource_missing`. */
export function load<K extends Kind>(env: SimEnv, account: string, kind: K, id: string, param = "id"): Kinds[K] {
  const row = env.store.row(id);
  if (!row || row.account !== account || row.kind !== kind) throw noSuch(kind, id, param);
  return JSON.parse(row.doc) as Kinds[K];
}

/** Stored object and its simulator-only extra document, by id (any account), or null. */
export function loadAny<K extends Kind, X = Record<string, unknown>>(
  env: SimEnv,
  kind: K,
  id: string,
): { doc: Kinds[K]; extra: X; account: string } | null {
  const row = env.store.row(id);
  if (!row || row.kind !== kind) return null;
  return { doc: JSON.parse(row.doc) as Kinds[K], extra: JSON.parse(row.extra) as X, account: row.account };
}

/** Current time in Unix seconds (Stripe's `created`). */
export function nowSec(env: SimEnv): number {
  return Math.floor(env.clock.nowMs() / 1000);
}

/** Settings changed by `/_sim/settings` and the event controls (kept in the store). */
export interface SimSettings {
  /** Delay before a pending refund succeeds, ms; null = manual (control route). */
  refund_delay_ms: number | null;
  /** Delay before the dispute of a `...0259` card opens, ms; null = manual. */
  dispute_delay_ms: number | null;
  /** The next N events are stored but never delivered. */
  drop_remaining: number;
  /** Deliveries of new events wait this long, ms. */
  event_delay_ms: number;
}

export const DEFAULT_SETTINGS: SimSettings = {
  refund_delay_ms: 1000,
  dispute_delay_ms: 2000,
  drop_remaining: 0,
  event_delay_ms: 0,
};

export function settings(env: SimEnv): SimSettings {
  const raw = env.store.setting("sim");
  return raw === null ? { ...DEFAULT_SETTINGS } : { ...DEFAULT_SETTINGS, ...(JSON.parse(raw) as Partial<SimSettings>) };
}

export function saveSettings(env: SimEnv, patch: Partial<SimSettings>): SimSettings {
  const next = { ...settings(env), ...patch };
  env.store.setSetting("sim", JSON.stringify(next));
  return next;
}
