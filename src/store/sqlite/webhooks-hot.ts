/**
 * The webhooks repository's prepared statements of the hot paths (fan-out per event, one claim
 * and one record per attempt), built once per connection (DESIGN.md: prepared statements double
 * insert throughput). On the single connection they take part in the open unit of work.
 */
import { and, eq, sql } from "drizzle-orm";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../../db/schema";
import type { SqliteContext } from "./context";

const p = <T extends string>(name: T) => sql.placeholder(name);

/**
 * Subscribed ACTIVE endpoints of (accountId, livemode): read for every event emitted, i.e. twice
 * per charge creation, so a raw statement (drizzle's prepared query maps each row).
 */
export const ACTIVE_ENDPOINTS =
  "select id, url, events from webhook_endpoints where account_id = ? and livemode = ? and status = 'ACTIVE'";

/** drizzle's prepared queries of the hot paths on `ctx` (build once per connection). */
export function prepareHot(ctx: SqliteContext) {
  const db = ctx.db;
  return {
    insertDelivery: db
      .insert(webhookDeliveries)
      .values({
        id: p("id"),
        accountId: p("accountId"),
        livemode: p("livemode"),
        endpointId: p("endpointId"),
        targetUrl: p("targetUrl"),
        eventId: p("eventId"),
        eventType: p("eventType"),
        family: p("family"),
        status: "PENDING",
        attempts: 0,
        maxAttempts: p("maxAttempts"),
        createdAt: p("now"),
        updatedAt: p("now"),
      })
      .prepare(),
    peekDelivery: db
      .select({
        status: webhookDeliveries.status,
        endpointId: webhookDeliveries.endpointId,
        targetUrl: webhookDeliveries.targetUrl,
      })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, p("id")))
      .prepare(),
    /** The delivery with its endpoint (absent when deleted) and the event body. */
    claimView: db
      .select({
        d: webhookDeliveries,
        epStatus: webhookEndpoints.status,
        epUrl: webhookEndpoints.url,
        epSecret: webhookEndpoints.secret,
        body: events.body,
      })
      .from(webhookDeliveries)
      .leftJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .leftJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.id, p("id")))
      .prepare(),
    markProcessing: db
      .update(webhookDeliveries)
      .set({ status: "PROCESSING", attempts: sql`${p("attempts")}`, nextRetryAt: null, updatedAt: sql`${p("now")}` })
      .where(eq(webhookDeliveries.id, p("id")))
      .prepare(),
    insertAttempt: db
      .insert(webhookAttempts)
      .values({
        id: p("id"),
        deliveryId: p("deliveryId"),
        attempt: p("attempt"),
        trigger: p("trigger"),
        status: "sending",
        startedAt: p("now"),
      })
      .prepare(),
    /** Records an outcome only while the delivery is still PROCESSING (a DELETE may have cancelled it). */
    finishDelivery: db
      .update(webhookDeliveries)
      .set({
        status: sql`${p("status")}`,
        lastStatusCode: sql`${p("lastStatusCode")}`,
        lastError: sql`${p("lastError")}`,
        lastResponseBody: sql`${p("lastResponseBody")}`,
        nextRetryAt: sql`${p("nextRetryAt")}`,
        deliveredAt: sql`${p("deliveredAt")}`,
        updatedAt: sql`${p("now")}`,
      })
      .where(and(eq(webhookDeliveries.id, p("id")), eq(webhookDeliveries.status, "PROCESSING")))
      .returning({ id: webhookDeliveries.id })
      .prepare(),
    finishAttempt: db
      .update(webhookAttempts)
      .set({
        status: sql`${p("status")}`,
        outcome: sql`${p("outcome")}`,
        statusCode: sql`${p("statusCode")}`,
        error: sql`${p("error")}`,
        responseBody: sql`${p("responseBody")}`,
        durationMs: sql`${p("durationMs")}`,
        finishedAt: sql`${p("now")}`,
        nextAttemptAt: sql`${p("nextAttemptAt")}`,
      })
      .where(eq(webhookAttempts.id, p("id")))
      .prepare(),
  };
}
export type HotStatements = ReturnType<typeof prepareHot>;
