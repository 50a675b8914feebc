/**
 * SQLite implementation of the webhooks repository (src/store/port/webhooks.ts): endpoints, deliveries, attempts,
 * transaction secrets.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookTransactionSecrets } from "../../../db/schema";
import type { ActiveEndpoint, DeliveryClaimView, WebhooksRepo, WebhookScope } from "../port/webhooks";
import type { SqliteContext } from "./context";
import { countDeliveriesByStatus, deliveryPageQueries } from "./webhooks-deliveries";
import { ACTIVE_ENDPOINTS, prepareHot, type HotStatements } from "./webhooks-hot";

/** Builds the webhooks repository on the adapter's connection `ctx`. */
export function webhooksRepo(ctx: SqliteContext): WebhooksRepo {
  const db = ctx.db;
  let prepared: HotStatements | undefined;
  const hot = () => (prepared ??= prepareHot(ctx));
  const inScope = (s: WebhookScope) =>
    and(eq(webhookEndpoints.accountId, s.accountId), eq(webhookEndpoints.livemode, s.livemode));
  const updateDelivery = (id: string, set: object) =>
    db.update(webhookDeliveries).set(set).where(eq(webhookDeliveries.id, id)).run();
  return {
    async insertEndpoint(row) {
      db.insert(webhookEndpoints).values(row).run();
    },
    async listEndpoints(s) {
      return db
        .select()
        .from(webhookEndpoints)
        .where(inScope(s))
        .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
        .all();
    },
    async findEndpoint(s, id) {
      return db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, id), inScope(s)))
        .get();
    },
    async endpointById(id) {
      return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();
    },
    async updateEndpoint(id, set) {
      db.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id)).run();
    },
    async deleteEndpoint(id) {
      db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).run();
    },
    async activeEndpoints(accountId, livemode) {
      return ctx.stmt(ACTIVE_ENDPOINTS).all(accountId, livemode ? 1 : 0) as ActiveEndpoint[];
    },

    async insertDeliveries(rows) {
      const insert = hot().insertDelivery;
      for (const r of rows)
        insert.run({
          id: r.id,
          accountId: r.accountId,
          livemode: r.livemode,
          endpointId: r.endpointId ?? null,
          targetUrl: r.targetUrl ?? null,
          eventId: r.eventId,
          eventType: r.eventType,
          family: r.family,
          maxAttempts: r.maxAttempts,
          now: r.createdAt,
        });
    },
    async deliveryById(id) {
      return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).get();
    },
    async updateDelivery(id, set) {
      updateDelivery(id, set);
    },
    async updateDeliveries(ids, set) {
      for (const id of ids) updateDelivery(id, set);
    },
    async deliveryIdsOfEndpoint(endpointId, statuses) {
      return db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.status, statuses)))
        .all()
        .map((r) => r.id);
    },
    async pageDeliveries(s, f, limit, offset) {
      const q = deliveryPageQueries(db, s, f, limit, offset);
      return { rows: q.page.all(), total: q.count.get()!.n };
    },
    async countByStatus(s) {
      return countDeliveriesByStatus(db, s);
    },

    async peekDelivery(id) {
      return hot().peekDelivery.get({ id });
    },
    async claimView(id) {
      return hot().claimView.get({ id }) as DeliveryClaimView | undefined;
    },
    async startAttempt(a) {
      const q = hot();
      q.markProcessing.run({ id: a.deliveryId, attempts: a.attempt, now: a.now });
      q.insertAttempt.run({
        id: a.attemptId,
        deliveryId: a.deliveryId,
        attempt: a.attempt,
        trigger: a.trigger,
        now: a.now,
      });
    },
    async finishAttempt(o) {
      const q = hot();
      const updated = q.finishDelivery.all({
        id: o.deliveryId,
        status: o.status,
        lastStatusCode: o.statusCode,
        lastError: o.error,
        lastResponseBody: o.responseBody,
        nextRetryAt: o.nextRetryAt,
        deliveredAt: o.deliveredAt,
        now: o.now,
      });
      const still = updated.length > 0;
      q.finishAttempt.run({
        id: o.attemptId,
        status: o.attemptStatus,
        outcome: o.outcome,
        statusCode: o.statusCode,
        error: o.error,
        responseBody: o.responseBody,
        durationMs: o.durationMs,
        nextAttemptAt: still ? o.nextRetryAt : null,
        now: o.now,
      });
      return still;
    },
    async failOpenAttempts(deliveryId, now, error) {
      db.update(webhookAttempts)
        .set({ status: "failed", outcome: "interrupted", error, finishedAt: now })
        .where(and(eq(webhookAttempts.deliveryId, deliveryId), eq(webhookAttempts.status, "sending")))
        .run();
    },
    async attemptsOf(deliveryId) {
      return db
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, deliveryId))
        .orderBy(webhookAttempts.attempt)
        .all();
    },

    async transactionSecret(s) {
      return db
        .select({ secret: webhookTransactionSecrets.secret })
        .from(webhookTransactionSecrets)
        .where(
          and(eq(webhookTransactionSecrets.accountId, s.accountId), eq(webhookTransactionSecrets.livemode, s.livemode)),
        )
        .get()?.secret;
    },
    async putTransactionSecret(s, secret, now) {
      db.insert(webhookTransactionSecrets)
        .values({ accountId: s.accountId, livemode: s.livemode, secret, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [webhookTransactionSecrets.accountId, webhookTransactionSecrets.livemode],
          set: { secret, updatedAt: now },
        })
        .run();
    },
    async keepTransactionSecret(s, secret, now) {
      db.insert(webhookTransactionSecrets)
        .values({ accountId: s.accountId, livemode: s.livemode, secret, createdAt: now, updatedAt: now })
        .onConflictDoNothing()
        .run();
      return (await this.transactionSecret(s))!;
    },
  };
}
