/** PostgreSQL implementation of the events repository (src/store/port/events.ts): the `events` outbox. */
import type { EventsRepo } from "../port/events";
import type { PgContext } from "./context";
import type { EventRow } from "../rows";
import { rowOf, rowsOf } from "./map";

/** Builds the events repository on `ctx`. */
export function eventsRepo(ctx: PgContext): EventsRepo {
  const { sql } = ctx;
  return {
    async append(row) {
      // Hot path: once per stored event (explicit columns: one prepared statement).
      await sql`insert into events (id, account_id, livemode, type, family, body, transaction_id, created_at)
        values (${row.id}, ${row.accountId}, ${row.livemode}, ${row.type}, ${row.family}, ${row.body}, ${row.transactionId ?? null}, ${row.createdAt})`;
    },
    async bodyOf(eventId) {
      const [row] = await sql`select body from events where id = ${eventId}`;
      return row?.body as string | undefined;
    },
    async list(q) {
      const types = q.types ?? [];
      const prefixes = (q.typePrefixes ?? []).map((p) => `${p.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      const typeFilter =
        types.length + prefixes.length === 0
          ? sql``
          : sql`and (type = any(${types}::text[]) or type like any(${prefixes}::text[]))`;
      const after = q.after
        ? sql`and (created_at < ${q.after.createdAt} or (created_at = ${q.after.createdAt} and id < ${q.after.id}))`
        : sql``;
      const from = q.createdAfterMs === undefined ? sql`` : sql`and created_at > ${q.createdAfterMs}`;
      const to = q.createdBeforeMs === undefined ? sql`` : sql`and created_at < ${q.createdBeforeMs}`;
      return rowsOf<EventRow>(
        await sql`select * from events where account_id = ${q.accountId} and livemode = ${q.livemode} and family = 'canonical'
          ${typeFilter} ${from} ${to} ${after} order by created_at desc, id desc limit ${q.limit}`,
      );
    },
    async byScopedId(accountId, livemode, id) {
      return rowOf<EventRow>(
        await sql`select * from events where id = ${id} and account_id = ${accountId} and livemode = ${livemode} and family = 'canonical'`,
      );
    },
    async pruneOlderThan(cutoffMs, limit) {
      // Per account and mode, so the walk is a range of events_account_created_idx.
      const [row] =
        await sql`with scopes as (select a.id, m.livemode from accounts a cross join (values (false), (true)) as m(livemode)),
        doomed as (select e.id from scopes s cross join lateral (
            select e.id from events e where e.account_id = s.id and e.livemode = s.livemode and e.created_at < ${cutoffMs}
              and not exists (select 1 from webhook_deliveries d where d.event_id = e.id) limit ${limit}) e limit ${limit}),
        gone as (delete from events where id in (select id from doomed) returning 1)
        select count(*)::int as n from gone`;
      return Number(row?.n ?? 0);
    },
  };
}
