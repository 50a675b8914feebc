/** The delivery listing's builder queries (GET /v1/webhooks/deliveries, stats); their plans are checked by tests. */
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { events, webhookDeliveries } from "../../../db/schema";
import type { Db } from "./client";
import type { DeliveryFilters, WebhookScope } from "../port/webhooks";

function deliveryWhere(s: WebhookScope, f: DeliveryFilters): SQL {
  // With a transaction: its events (events_tx_idx), then their deliveries (wd_event_idx). The unary
  // `+` keeps the planner off the scope indexes, which it otherwise prefers for the ORDER BY and
  // which would scan the mode's deliveries (EXPLAIN QUERY PLAN in test/webhooks/deliveries-by-transaction.test.ts).
  const parts: SQL[] = f.transactionId
    ? [
        sql`+${webhookDeliveries.accountId} = ${s.accountId}`,
        sql`+${webhookDeliveries.livemode} = ${s.livemode ? 1 : 0}`,
      ]
    : [eq(webhookDeliveries.accountId, s.accountId), eq(webhookDeliveries.livemode, s.livemode)];
  if (f.status) parts.push(eq(webhookDeliveries.status, f.status));
  if (f.eventType) parts.push(eq(webhookDeliveries.eventType, f.eventType));
  if (f.endpointId) parts.push(eq(webhookDeliveries.endpointId, f.endpointId));
  if (f.transactionId)
    parts.push(
      sql`${webhookDeliveries.eventId} in (select ${events.id} from ${events} where ${events.transactionId} = ${f.transactionId})`,
    );
  return and(...parts)!;
}

/** The two unexecuted queries of a delivery page: the rows (newest first, with the envelope) and the total. */
export function deliveryPageQueries(db: Db, s: WebhookScope, f: DeliveryFilters, limit: number, offset: number) {
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
export function countDeliveriesByStatus(db: Db, s: WebhookScope): Record<string, number> {
  const rows = db
    .select({ status: webhookDeliveries.status, n: sql<number>`count(*)` })
    .from(webhookDeliveries)
    .where(deliveryWhere(s, {}))
    .groupBy(webhookDeliveries.status)
    .all();
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
