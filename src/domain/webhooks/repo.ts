/** Drizzle queries of the webhooks group (endpoints, deliveries, attempts, transaction secrets). */
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookTransactionSecrets } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";
import type { DeliveryStatus } from "./model";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** Account and mode every query is scoped by. */
export interface Scope {
  accountId: string;
  livemode: boolean;
}

export function insertEndpoint(t: DbOrTx, row: EndpointRow): void {
  t.insert(webhookEndpoints).values(row).run();
}

/** Endpoints of the scope, newest first. */
export function listEndpoints(db: DbOrTx, s: Scope): EndpointRow[] {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, s.accountId), eq(webhookEndpoints.livemode, s.livemode)))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
    .all();
}

/** The endpoint `id` when it belongs to the scope, else undefined. */
export function findEndpoint(db: DbOrTx, s: Scope, id: string): EndpointRow | undefined {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, s.accountId), eq(webhookEndpoints.livemode, s.livemode)))
    .get();
}

export function endpointById(db: DbOrTx, id: string): EndpointRow | undefined {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();
}

export function updateEndpoint(t: DbOrTx, id: string, set: Partial<EndpointRow>): void {
  t.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id)).run();
}

export function deleteEndpoint(t: DbOrTx, id: string): void {
  t.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).run();
}

export function deliveryById(db: DbOrTx, id: string): DeliveryRow | undefined {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).get();
}

export function updateDelivery(t: DbOrTx, id: string, set: Partial<DeliveryRow>): void {
  t.update(webhookDeliveries).set(set).where(eq(webhookDeliveries.id, id)).run();
}

/** Ids of the endpoint's deliveries in one of `statuses`. */
export function deliveryIdsOfEndpoint(db: DbOrTx, endpointId: string, statuses: DeliveryStatus[]): string[] {
  return db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.status, statuses)))
    .all()
    .map((r) => r.id);
}

export interface DeliveryFilters {
  status?: DeliveryStatus;
  eventType?: string;
  endpointId?: string;
  /** Deliveries of this transaction's events (raw id); the dashboard's payment detail. */
  transactionId?: string;
}

function deliveryWhere(s: Scope, f: DeliveryFilters): SQL {
  // With a transaction: its events (events_tx_idx), then their deliveries (wd_event_idx). The unary
  // `+` keeps the planner off the scope indexes, which it otherwise prefers for the ORDER BY and
  // which would scan the mode's deliveries (EXPLAIN QUERY PLAN in test/webhooks/deliveries-index.test.ts).
  const parts: SQL[] = f.transactionId
    ? [sql`+${webhookDeliveries.accountId} = ${s.accountId}`, sql`+${webhookDeliveries.livemode} = ${s.livemode ? 1 : 0}`]
    : [eq(webhookDeliveries.accountId, s.accountId), eq(webhookDeliveries.livemode, s.livemode)];
  if (f.status) parts.push(eq(webhookDeliveries.status, f.status));
  if (f.eventType) parts.push(eq(webhookDeliveries.eventType, f.eventType));
  if (f.endpointId) parts.push(eq(webhookDeliveries.endpointId, f.endpointId));
  if (f.transactionId) parts.push(sql`${webhookDeliveries.eventId} in (select ${events.id} from ${events} where ${events.transactionId} = ${f.transactionId})`);
  return and(...parts)!;
}

/** A page of deliveries (newest first) with the sent envelope, and the total matching. */
export function pageDeliveries(db: DbOrTx, s: Scope, f: DeliveryFilters, limit: number, offset: number) {
  const q = deliveryPageQueries(db, s, f, limit, offset);
  return { rows: q.page.all(), total: q.count.get()!.n };
}

/** The two unexecuted queries of `pageDeliveries` (their plans are checked by tests). */
export function deliveryPageQueries(db: DbOrTx, s: Scope, f: DeliveryFilters, limit: number, offset: number) {
  const where = deliveryWhere(s, f);
  const page = db
    .select({ d: webhookDeliveries, body: events.body })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit)
    .offset(offset);
  const count = db.select({ n: sql<number>`count(*)` }).from(webhookDeliveries).where(where);
  return { page, count };
}

/** Count of the scope's deliveries per status. */
export function countByStatus(db: DbOrTx, s: Scope): Record<string, number> {
  const rows = db
    .select({ status: webhookDeliveries.status, n: sql<number>`count(*)` })
    .from(webhookDeliveries)
    .where(deliveryWhere(s, {}))
    .groupBy(webhookDeliveries.status)
    .all();
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** The stored envelope body of an event. */
export function eventBody(db: DbOrTx, eventId: string): string | undefined {
  return db.select({ body: events.body }).from(events).where(eq(events.id, eventId)).get()?.body;
}

/** Attempts of a delivery, oldest first. */
export function attemptsOf(db: DbOrTx, deliveryId: string): AttemptRow[] {
  return db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(webhookAttempts.attempt).all();
}

/** Marks attempts still `sending` (the worker stopped mid-attempt) as failed. */
export function failOpenAttempts(t: DbOrTx, deliveryId: string, now: number, error: string): void {
  t.update(webhookAttempts)
    .set({ status: "failed", outcome: "interrupted", error, finishedAt: now })
    .where(and(eq(webhookAttempts.deliveryId, deliveryId), eq(webhookAttempts.status, "sending")))
    .run();
}

export function transactionSecret(db: DbOrTx, s: Scope): string | undefined {
  return db
    .select({ secret: webhookTransactionSecrets.secret })
    .from(webhookTransactionSecrets)
    .where(and(eq(webhookTransactionSecrets.accountId, s.accountId), eq(webhookTransactionSecrets.livemode, s.livemode)))
    .get()?.secret;
}

/** Inserts or replaces the scope's transaction-webhook secret. */
export function putTransactionSecret(t: DbOrTx, s: Scope, secret: string, now: number): void {
  t.insert(webhookTransactionSecrets)
    .values({ accountId: s.accountId, livemode: s.livemode, secret, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [webhookTransactionSecrets.accountId, webhookTransactionSecrets.livemode], set: { secret, updatedAt: now } })
    .run();
}
