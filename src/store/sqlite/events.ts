/** SQLite implementation of the events repository (src/store/port/events.ts): the `events` outbox. */
import { eq } from "drizzle-orm";
import { events } from "../../../db/schema";
import type { EventListQuery, EventsRepo } from "../port/events";
import type { EventRow } from "../rows";
import type { SqliteContext } from "./context";

/** Builds the events repository on the adapter's connection `ctx`. */
export function eventsRepo(ctx: SqliteContext): EventsRepo {
  return {
    async append(row) {
      // Hot path (every canonical event is stored): a raw prepared statement, no row mapping.
      ctx
        .stmt(INSERT_SQL)
        .run(
          row.id,
          row.accountId,
          row.livemode ? 1 : 0,
          row.type,
          row.family,
          row.body,
          row.transactionId ?? null,
          row.createdAt,
        );
    },
    async bodyOf(eventId) {
      return ctx.db.select({ body: events.body }).from(events).where(eq(events.id, eventId)).get()?.body;
    },
    async list(q) {
      const { where, args } = listWhere(q);
      const rows = ctx.client
        .prepare(`select ${COLS} from events where ${where} order by created_at desc, id desc limit ?`)
        .all(...args, q.limit) as Record<string, unknown>[];
      return rows.map(toRow);
    },
    async byScopedId(accountId, livemode, id) {
      const r = ctx
        .stmt(`select ${COLS} from events where id = ? and account_id = ? and livemode = ? and family = 'canonical'`)
        .get(id, accountId, livemode ? 1 : 0);
      return r ? toRow(r as Record<string, unknown>) : undefined;
    },
    async pruneOlderThan(cutoffMs, limit) {
      // Per account and mode, so the walk is a range of events_account_created_idx.
      const scopes = ctx.stmt("select id from accounts").all() as { id: string }[];
      let deleted = 0;
      for (const { id } of scopes)
        for (const mode of [0, 1]) {
          if (deleted >= limit) return deleted;
          deleted += ctx.stmt(PRUNE_SQL).run(id, mode, cutoffMs, limit - deleted).changes;
        }
      return deleted;
    },
  };
}

const INSERT_SQL =
  "insert into events (id, account_id, livemode, type, family, body, transaction_id, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)";

const COLS = "id, account_id, livemode, type, family, body, transaction_id, created_at";

const PRUNE_SQL = `delete from events where id in (
  select e.id from events e where e.account_id = ? and e.livemode = ? and e.created_at < ?
    and not exists (select 1 from webhook_deliveries d where d.event_id = e.id) limit ?)`;

function toRow(r: Record<string, unknown>): EventRow {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    type: r.type as string,
    family: r.family as string,
    body: r.body as string,
    transactionId: (r.transaction_id as string | null) ?? null,
    createdAt: r.created_at as number,
  };
}

/** The WHERE clause (and its `?` arguments) of a list query. */
function listWhere(q: EventListQuery): { where: string; args: (string | number)[] } {
  const parts = ["account_id = ?", "livemode = ?", "family = 'canonical'"];
  const args: (string | number)[] = [q.accountId, q.livemode ? 1 : 0];
  const typeParts: string[] = [];
  for (const t of q.types ?? []) {
    typeParts.push("type = ?");
    args.push(t);
  }
  for (const prefix of q.typePrefixes ?? []) {
    typeParts.push("substr(type, 1, ?) = ?");
    args.push(prefix.length, prefix);
  }
  if (typeParts.length > 0) parts.push(`(${typeParts.join(" or ")})`);
  if (q.createdAfterMs !== undefined) {
    parts.push("created_at > ?");
    args.push(q.createdAfterMs);
  }
  if (q.createdBeforeMs !== undefined) {
    parts.push("created_at < ?");
    args.push(q.createdBeforeMs);
  }
  if (q.after) {
    parts.push("(created_at < ? or (created_at = ? and id < ?))");
    args.push(q.after.createdAt, q.after.createdAt, q.after.id);
  }
  return { where: parts.join(" and "), args };
}
