/** Helpers shared by the charges, pix and checkout tests. */
import { expect } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { testDb } from "../support/test-db";
import type { Deps } from "../../src/deps";

/** Public URL with a dotted host, so every BR Code parser accepts the location. */
export const PUBLIC_URL = "https://pay.cofre.test";

/** Exact field set of a public Charge (without the payer-lock echo). */
export const CHARGE_FIELDS = [
  "amount",
  "checkout_url",
  "created_at",
  "currency",
  "customer",
  "id",
  "metadata",
  "object",
  "payment_method",
  "pix",
  "settlement",
  "status",
].sort();

/** A harness whose seeded accounts subscribe to every event, so the outbox keeps them (`eventTypes`). */
export function harness(config: Parameters<typeof createHarness>[0] = {}) {
  const h = createHarness({ publicUrl: PUBLIC_URL, checkoutUrlBase: `${PUBLIC_URL}/c`, ...config });
  h.subscribeAllEvents = true;
  return h;
}

let n = 0;
/** A fresh idempotency key. */
export function idemKey(): string {
  return `test-key-${++n}-${Math.random().toString(36).slice(2)}`;
}

/** POST /v1/pix/charges with a fresh key (or `key`). */
export function createCharge(
  h: Harness,
  apiKey: string,
  body: Record<string, unknown> = {},
  key = idemKey(),
  path = "/v1/pix/charges",
) {
  return h.call("POST", path, { key: apiKey, headers: { "idempotency-key": key }, body: { amount: 1000, ...body } });
}

/** Creates a charge and asserts 201. */
export async function newCharge(h: Harness, a: SeededAccount, body: Record<string, unknown> = {}) {
  const r = await createCharge(h, a.testKey, body);
  expect(r.status).toBe(201);
  return r.body;
}

/** `{available, pending}` from GET /v1/wallets/balance?currency=BRL. */
export async function balance(h: Harness, apiKey: string): Promise<{ available: number; pending: number }> {
  const r = await h.call("GET", "/v1/wallets/balance?currency=BRL", { key: apiKey });
  expect(r.status).toBe(200);
  return { available: r.body.available, pending: r.body.pending };
}

/** The events of a raw transaction id, oldest first (by created_at, then id: UUIDv7, so write order). */
function eventsOf(h: Harness, rawId: string) {
  return testDb(h.deps).all<{ type: string; body: string }>(
    "select type, body from events where transaction_id = ? order by created_at, id",
    rawId,
  );
}

/** Event types written for a raw transaction id, in order. */
export async function eventTypes(h: Harness, rawId: string): Promise<string[]> {
  return (await eventsOf(h, rawId)).map((e) => e.type);
}

/** Parsed bodies of the events of `type` for a raw transaction id. */
export async function eventBodies(h: Harness, rawId: string, type: string): Promise<any[]> {
  return (await eventsOf(h, rawId)).filter((e) => e.type === type).map((e) => JSON.parse(e.body));
}

export const raw = (chargeId: string) => chargeId.replace(/^ch_/, "");

/** Valid documents for tests. */
export const CPF = "52998224725";
export const CPF_2 = "11144477735";
export const CNPJ = "11222333000181";
export const CNPJ_ALNUM = "12ABC34501DE35";

/** Whether the raw transaction still waits for the expiry sweep (a row of the partial index tx_waiting_expiry_idx). */
export async function awaitsExpiry(h: Harness, rawId: string): Promise<boolean> {
  const db = testDb(h.deps);
  // SQLite's INDEXED BY fails the query unless the partial index serves it; PostgreSQL has the same index and predicate, without the hint.
  const from = db.kind === "sqlite" ? "transactions indexed by tx_waiting_expiry_idx" : "transactions";
  return !!(await db.get(
    `select 1 from ${from} where status in ('PENDING', 'WAITING_PAYMENT') and expires_at is not null and id = ?`,
    rawId,
  ));
}

/**
 * Lets the startup work `createDeps` began through the store finish (registration reads, then
 * schedules in a unit of work): on SQLite microtasks only, so one event-loop turn, no timer; on
 * PostgreSQL those are round trips, so it also awaits `deps.startup`.
 */
export async function startupSettled(deps: Pick<Deps, "startup" | "store">): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (deps.store.kind === "postgres") await deps.startup;
}
