/**
 * SQLite implementation of the payouts and payout destinations repositories
 * (src/store/port/payouts.ts): drizzle builder queries on `payouts` and `payout_destinations`.
 * One writer at a time on SQLite, so the conditional writes and the daily sum need no locks.
 * The create path's reads and insert and the job's `moveFrom` are raw prepared statements; the rest uses the builder.
 */
import { and, desc, eq, getTableColumns, gte, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { payoutDestinations, payouts } from "../../../db/schema";
import type { PayoutDestinationsRepo, PayoutListQuery, PayoutsRepo } from "../port/payouts";
import type { PayoutDestinationRow, PayoutRow } from "../rows";
import type { SqliteContext } from "./context";
import { rawRows } from "./raw-rows";

/** The create path's statements are raw and prepared once (CONVENTIONS.md "Hot paths"). */
const DEST = rawRows<PayoutDestinationRow>(payoutDestinations, "payout_destinations");
const DEST_SCOPED = `${DEST.select} where id = ? and account_id = ?`;
const PAYOUT = rawRows<PayoutRow>(payouts, "payouts");
const PAYOUT_BY_ID = `${PAYOUT.select} where id = ?`;
const PAYOUT_SCOPED = `${PAYOUT.select} where id = ? and account_id = ? and livemode = ?`;
const PAYOUT_BY_SEND_ID = `${PAYOUT.select} where send_id = ?`;
/** Column name of each row key, and the select list of whole rows (for `moveFrom`'s `returning`). */
const COLUMN: Record<string, string> = Object.fromEntries(
  Object.entries(getTableColumns(payouts)).map(([k, c]) => [k, c.name]),
);
const RETURNING = PAYOUT.select.slice("select ".length, -" from payouts".length);
const DAY_SUM =
  "select coalesce(sum(amount), 0) as s from payouts where account_id = ? and livemode = ? and created_at >= ? and created_at < ? and status not in ('failed', 'cancelled')";

/** Builds the payout destinations repository on the adapter's connection `ctx`. */
export function payoutDestinationsRepo(ctx: SqliteContext): PayoutDestinationsRepo {
  const db = ctx.db;
  return {
    async insert(row) {
      db.insert(payoutDestinations).values(row).run();
    },
    async byIdScoped(accountId, id) {
      return DEST.row(ctx.stmt(DEST_SCOPED).get(id, accountId));
    },
    // Index payout_destinations_account_idx.
    async listActive(accountId) {
      return db
        .select()
        .from(payoutDestinations)
        .where(and(eq(payoutDestinations.accountId, accountId), isNull(payoutDestinations.deletedAt)))
        .orderBy(desc(payoutDestinations.createdAt), desc(payoutDestinations.id))
        .all();
    },
    async softDelete(accountId, id, now) {
      const r = db
        .update(payoutDestinations)
        .set({ deletedAt: now })
        .where(
          and(
            eq(payoutDestinations.id, id),
            eq(payoutDestinations.accountId, accountId),
            isNull(payoutDestinations.deletedAt),
          ),
        )
        .run();
      return (r as unknown as { changes: number }).changes === 1;
    },
  };
}

/** Builds the payouts repository on the adapter's connection `ctx`. */
export function payoutsRepo(ctx: SqliteContext): PayoutsRepo {
  const db = ctx.db;
  return {
    async insert(row) {
      ctx.stmt(PAYOUT.insert).run(...PAYOUT.values(row));
    },
    async byId(id) {
      return PAYOUT.row(ctx.stmt(PAYOUT_BY_ID).get(id));
    },
    async byIdScoped(accountId, livemode, id) {
      return PAYOUT.row(ctx.stmt(PAYOUT_SCOPED).get(id, accountId, livemode ? 1 : 0));
    },
    async bySendId(sendId) {
      return PAYOUT.row(ctx.stmt(PAYOUT_BY_SEND_ID).get(sendId));
    },
    // Raw statement, prepared once per set of patched columns (every step of a payout's job runs it).
    async moveFrom(id, from, patch: Partial<PayoutRow>) {
      const set = (Object.keys(patch).length ? patch : { status: from }) as Record<string, unknown>;
      const keys = Object.keys(set).filter((k) => set[k] !== undefined);
      const values = keys.map((k) =>
        typeof set[k] === "boolean" ? (set[k] ? 1 : 0) : ((set[k] ?? null) as string | number | null),
      );
      const text = `update payouts set ${keys.map((k) => `"${COLUMN[k]}" = ?`).join(", ")} where id = ? and status = ? returning ${RETURNING}`;
      return PAYOUT.row(ctx.stmt(text).get(...values, id, from));
    },
    // Index payouts_account_idx.
    async list(q: PayoutListQuery) {
      const conds: (SQL | undefined)[] = [eq(payouts.accountId, q.accountId), eq(payouts.livemode, q.livemode)];
      if (q.status !== undefined) conds.push(eq(payouts.status, q.status));
      if (q.createdFromMs !== undefined) conds.push(gte(payouts.createdAt, q.createdFromMs));
      if (q.createdToMs !== undefined) conds.push(lte(payouts.createdAt, q.createdToMs));
      if (q.after)
        conds.push(
          or(
            lt(payouts.createdAt, q.after.createdAt),
            and(eq(payouts.createdAt, q.after.createdAt), lt(payouts.id, q.after.id)),
          ),
        );
      return db
        .select()
        .from(payouts)
        .where(and(...conds))
        .orderBy(desc(payouts.createdAt), desc(payouts.id))
        .limit(q.limit + 1)
        .all();
    },
    async sumActiveCreated(accountId, livemode, fromMs, toMs) {
      return (ctx.stmt(DAY_SUM).get(accountId, livemode ? 1 : 0, fromMs, toMs) as { s: number }).s;
    },
    async inFlightTotals() {
      return db
        .select({
          accountId: payouts.accountId,
          livemode: payouts.livemode,
          currency: payouts.currency,
          amount: sql<number>`sum(${payouts.amount})`,
        })
        .from(payouts)
        .where(inArray(payouts.status, ["pending", "processing"]))
        .groupBy(payouts.accountId, payouts.livemode, payouts.currency)
        .all();
    },
  };
}
