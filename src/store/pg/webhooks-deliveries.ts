/**
 * The deliveries half of the PostgreSQL webhooks repository (src/store/port/webhooks.ts):
 * deliveries, their attempts, the dashboard listing. The hot paths are one statement each: the
 * fan-out's `insertDeliveries` (one multi-row insert per event), the worker's `claimView` (which,
 * inside a unit, locks the delivery row so two instances, or a manual retry and the scheduled
 * job, never start the same attempt twice), `startAttempt` and `finishAttempt`.
 */
import type { WebhookAttemptRow, WebhookDeliveryRow } from "../rows";
import type {
  DeliveryClaimView,
  DeliveryFilters,
  DeliveryWithBody,
  WebhooksRepo,
  WebhookScope,
} from "../port/webhooks";
import type { PgContext } from "./context";
import { numberOf, rowOf, rowsOf, toColumns } from "./map";

type DeliveryMethods = Pick<
  WebhooksRepo,
  | "insertDeliveries"
  | "deliveryById"
  | "updateDelivery"
  | "updateDeliveries"
  | "deliveryIdsOfEndpoint"
  | "pageDeliveries"
  | "countByStatus"
  | "peekDelivery"
  | "claimView"
  | "startAttempt"
  | "finishAttempt"
  | "failOpenAttempts"
  | "attemptsOf"
>;

/** The delivery methods of the webhooks repository on `ctx`. */
export function deliveriesRepo(ctx: PgContext): DeliveryMethods {
  const { sql } = ctx;
  const claimLock = ctx.inUnit ? sql`for update of d` : sql``;

  /**
   * The listing's filter on `d` (webhook_deliveries). With a transaction: its events (events_tx_idx), then their
   * deliveries (wd_event_idx).
   */
  const deliveryWhere = (s: WebhookScope, f: DeliveryFilters) =>
    sql`d.account_id = ${s.accountId} and d.livemode = ${s.livemode}
      ${f.status ? sql`and d.status = ${f.status}` : sql``}
      ${f.eventType ? sql`and d.event_type = ${f.eventType}` : sql``}
      ${f.endpointId ? sql`and d.endpoint_id = ${f.endpointId}` : sql``}
      ${f.transactionId ? sql`and d.event_id in (select id from events where transaction_id = ${f.transactionId})` : sql``}`;

  return {
    async insertDeliveries(rows) {
      if (rows.length === 0) return;
      // Every object with the same keys: Bun.SQL takes the column list from the first one.
      const values = rows.map((r) => ({
        id: r.id,
        account_id: r.accountId,
        livemode: r.livemode,
        endpoint_id: r.endpointId ?? null,
        target_url: r.targetUrl ?? null,
        event_id: r.eventId,
        event_type: r.eventType,
        family: r.family,
        status: "PENDING",
        attempts: 0,
        max_attempts: r.maxAttempts,
        created_at: r.createdAt,
        updated_at: r.createdAt,
      }));
      await sql`insert into webhook_deliveries ${sql(values)}`;
    },
    async deliveryById(id) {
      return rowOf<WebhookDeliveryRow>(await sql`select * from webhook_deliveries where id = ${id}`);
    },
    async updateDelivery(id, set) {
      const cols = toColumns(set);
      if (Object.keys(cols).length) await sql`update webhook_deliveries set ${sql(cols)} where id = ${id}`;
    },
    async updateDeliveries(ids, set) {
      const cols = toColumns(set);
      if (ids.length && Object.keys(cols).length)
        await sql`update webhook_deliveries set ${sql(cols)} where id = any(${ids}::text[])`;
    },
    async deliveryIdsOfEndpoint(endpointId, statuses) {
      const rows = (await sql`select id from webhook_deliveries
        where endpoint_id = ${endpointId} and status = any(${statuses}::text[]) order by id`) as { id: string }[];
      return rows.map((r) => r.id);
    },
    async pageDeliveries(s, f, limit, offset) {
      // The total counts deliveries whose event is gone too (the page joins the events), as on SQLite.
      const [page, total] = await Promise.all([
        sql`select d.*, e.body as event_body from webhook_deliveries d join events e on e.id = d.event_id
          where ${deliveryWhere(s, f)} order by d.created_at desc, d.id desc limit ${limit} offset ${offset}`,
        sql`select count(*) from webhook_deliveries d where ${deliveryWhere(s, f)}`,
      ]);
      const rows = rowsOf<WebhookDeliveryRow & { eventBody: string }>(page).map(
        ({ eventBody, ...d }): DeliveryWithBody => ({ d, body: eventBody }),
      );
      return { rows, total: numberOf(total) ?? 0 };
    },
    async countByStatus(s) {
      const rows =
        (await sql`select d.status, count(*) as n from webhook_deliveries d where ${deliveryWhere(s, {})} group by d.status`) as {
          status: string;
          n: string;
        }[];
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },

    async peekDelivery(id) {
      return rowOf<{ status: string; endpointId: string | null; targetUrl: string | null }>(
        await sql`select status, endpoint_id, target_url from webhook_deliveries where id = ${id}`,
      );
    },
    async claimView(id) {
      const row = rowOf<
        WebhookDeliveryRow & {
          epStatus: string | null;
          epUrl: string | null;
          epSecret: string | null;
          eventBody: string | null;
        }
      >(
        await sql`select d.*, ep.status as ep_status, ep.url as ep_url, ep.secret as ep_secret, e.body as event_body
          from webhook_deliveries d
          left join webhook_endpoints ep on ep.id = d.endpoint_id
          left join events e on e.id = d.event_id
          where d.id = ${id} ${claimLock}`,
      );
      if (!row) return undefined;
      const { epStatus, epUrl, epSecret, eventBody, ...d } = row;
      return { d, epStatus, epUrl, epSecret, body: eventBody } satisfies DeliveryClaimView;
    },
    async startAttempt(a) {
      await sql`with u as (
          update webhook_deliveries set status = 'PROCESSING', attempts = ${a.attempt}, next_retry_at = null, updated_at = ${a.now} where id = ${a.deliveryId}
        )
        insert into webhook_attempts (id, delivery_id, attempt, trigger, status, started_at)
        values (${a.attemptId}, ${a.deliveryId}, ${a.attempt}, ${a.trigger}, 'sending', ${a.now})`;
    },
    async finishAttempt(o) {
      // One statement: the delivery only while still PROCESSING (a DELETE may have cancelled it),
      // the attempt row always, its next attempt time only when the delivery was updated.
      const rows = (await sql`with u as (
          update webhook_deliveries set status = ${o.status}, last_status_code = ${o.statusCode}, last_error = ${o.error},
            last_response_body = ${o.responseBody}, next_retry_at = ${o.nextRetryAt}, delivered_at = ${o.deliveredAt}, updated_at = ${o.now}
          where id = ${o.deliveryId} and status = 'PROCESSING' returning 1
        ), a as (
          update webhook_attempts set status = ${o.attemptStatus}, outcome = ${o.outcome}, status_code = ${o.statusCode}, error = ${o.error},
            response_body = ${o.responseBody}, duration_ms = ${o.durationMs}, finished_at = ${o.now},
            next_attempt_at = case when exists (select 1 from u) then ${o.nextRetryAt}::bigint end
          where id = ${o.attemptId}
        )
        select exists (select 1 from u) as still`) as { still: boolean }[];
      return rows[0]!.still;
    },
    async failOpenAttempts(deliveryId, now, error) {
      await sql`update webhook_attempts set status = 'failed', outcome = 'interrupted', error = ${error}, finished_at = ${now}
        where delivery_id = ${deliveryId} and status = 'sending'`;
    },
    async attemptsOf(deliveryId) {
      return rowsOf<WebhookAttemptRow>(
        await sql`select * from webhook_attempts where delivery_id = ${deliveryId} order by attempt, started_at, id`,
      );
    },
  };
}
