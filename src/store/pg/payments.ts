/**
 * PostgreSQL implementation of the payments repository (src/store/port/payments.ts): the
 * `GET /v1/payments` page and total over `transactions`, and the legacy events a resend reads.
 * Twin of src/store/sqlite/payments.ts (same totals, rows and order; the ORDER BY is
 * ./payments-sort.ts). Totals without date filters come from the sharded daily aggregates
 * (./stats.ts), summed.
 */
import type { SQL } from "bun";
import type { PaymentListQuery, PaymentsRepo } from "../port/payments";
import type { TransactionRow } from "../rows";
import type { PgContext } from "./context";
import { numberOf, rowsOf } from "./map";
import { orderBy } from "./payments-sort";

/** A statement fragment (`sql\`...\``), nested into the statement it is part of. */
type Fragment = SQL.Query<unknown>;

/** Builds the payments repository on `ctx`. */
export function paymentsRepo(ctx: PgContext): PaymentsRepo {
  const sql = ctx.sql;
  const and = (conds: Fragment[]): Fragment => conds.reduce((acc, c) => sql`${acc} and ${c}`);

  /** Sum of the aggregate cells' counts of the scope (optionally of one status or one paying method). */
  async function aggregateCount(q: PaymentListQuery, extra: Fragment): Promise<number> {
    return (
      numberOf(
        await sql`select coalesce(sum(count), 0) from payment_daily_stats where account_id = ${q.accountId} and livemode = ${q.livemode} ${extra}`,
      ) ?? 0
    );
  }

  /**
   * The count of the scope's unpaid rows offering `method`, on `tx_account_unpaid_methods_idx`
   * only: unpaid rows carry few distinct `payment_methods` arrays, so it walks the distinct values
   * (one index seek each, a recursive CTE) and counts the equal-key range of each value holding
   * `method` (as src/store/sqlite/payments.ts `unpaidOfferingCount`).
   */
  async function unpaidOfferingCount(q: PaymentListQuery, method: string): Promise<number> {
    const scope = sql`account_id = ${q.accountId} and livemode = ${q.livemode} and paid_with is null`;
    return (
      numberOf(
        await sql`with recursive v(m) as (
            select min(payment_methods) from transactions where ${scope}
            union all
            select (select min(payment_methods) from transactions where ${scope} and payment_methods > v.m) from v where v.m is not null
          )
          select coalesce(sum(c.n), 0) from v cross join lateral (select count(*) as n from transactions where ${scope} and payment_methods = v.m) c
          where v.m is not null and strpos(v.m, ${`"${method}"`}) > 0`,
      ) ?? 0
    );
  }

  /**
   * The condition of a search term: the one transaction whose id, txid or end-to-end id it is
   * (three unique-index lookups), else the transactions of that customer document (digits only).
   * Boxed: a fragment is a thenable query, which an async function's return would run.
   */
  async function searchCondition(term: string, scope: Fragment): Promise<{ cond: Fragment }> {
    const s = term.trim();
    const id = s.startsWith("ch_") ? s.slice(3) : s;
    const [hit] =
      await sql`select id from transactions where ${scope} and (id = ${id} or pix_txid = ${s} or end_to_end_id = ${s}) limit 1`;
    if (hit) return { cond: sql`id = ${hit.id as string}` };
    // Documents are stored as sent (payments group) or as digits (charges): match either form.
    const digits = s.replace(/[.\-/\s]/g, "");
    return { cond: sql`customer_document = any(${[...new Set([s, digits])]}::text[])` };
  }

  return {
    async page(q) {
      const conds: Fragment[] = [sql`account_id = ${q.accountId}`, sql`livemode = ${q.livemode}`];
      if (q.status) conds.push(sql`status = ${q.status}`);
      if (q.startMs !== undefined) conds.push(sql`created_at >= ${q.startMs}`);
      if (q.endMs !== undefined) conds.push(sql`created_at <= ${q.endMs}`);
      // Paid with the method, or unpaid and offering it (`payment_methods` is a JSON array of names, none a substring of another once quoted).
      if (q.paymentMethod !== undefined)
        conds.push(
          sql`(paid_with = ${q.paymentMethod} or (paid_with is null and strpos(payment_methods, ${`"${q.paymentMethod}"`}) > 0))`,
        );
      if (q.search !== undefined) conds.push((await searchCondition(q.search, and(conds))).cond);
      const where = and(conds);
      const noDates = q.startMs === undefined && q.endMs === undefined && q.search === undefined;
      const total =
        noDates && q.paymentMethod === undefined
          ? await aggregateCount(q, q.status ? sql`and status = ${q.status}` : sql``)
          : noDates && q.status === undefined && q.paymentMethod !== undefined
            ? (await aggregateCount(q, sql`and method = ${q.paymentMethod}`)) +
              (await unpaidOfferingCount(q, q.paymentMethod))
            : (numberOf(await sql`select count(*) from transactions where ${where}`) ?? 0);
      // `total` is exact: a page past it is empty without walking the sort index.
      if ((q.page - 1) * q.limit >= total) return { rows: [], total };
      const rows = rowsOf<TransactionRow>(
        await sql`select * from transactions where ${where} order by ${orderBy(sql, q.sortBy, q.sortOrder)} limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
      );
      return { rows, total };
    },
    async recentLegacyEventBodies(transactionId, limit) {
      // Newest first; events of the same millisecond in insertion order (ids are time-ordered),
      // as SQLite's sort of its events_tx_idx range leaves them.
      const rows = await sql`select body from events where transaction_id = ${transactionId} and family = 'legacy'
        order by created_at desc, id collate "C" asc limit ${limit}`;
      return (rows as { body: string }[]).map((r) => r.body);
    },
  };
}
