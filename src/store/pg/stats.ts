/**
 * PostgreSQL implementation of the stats repository (src/store/port/stats.ts). The aggregates are
 * kept by the triggers of db/migrations-pg/0004_payment_aggregate_triggers.sql, each session
 * adding to its own write shard (`pg_backend_pid() & 1023`), so a cell is the sum of its shard
 * rows: each read is one primary-key range read summed by cell. Twin of src/store/sqlite/stats.ts
 * (same cells in the same order, the key's; a summed cell may be 0 where SQLite's row is 0 too).
 */
import { bucketSeconds, type PayTimeBucket, type StatsCell, type StatsRepo } from "../port/stats";
import type { PgContext } from "./context";
import { rowsOf } from "./map";

/** Builds the stats repository on `ctx`. */
export function statsRepo(ctx: PgContext): StatsRepo {
  const ofCurrency = (currency: string | undefined) => (currency ? ctx.sql`and currency = ${currency}` : ctx.sql``);
  return {
    async cells(accountId, livemode, from, to, currency) {
      return rowsOf<StatsCell>(
        await ctx.sql`select day, currency, method, status, paid, sum(count) as count, sum(amount) as amount, sum(refunded) as refunded
          from payment_daily_stats
          where account_id = ${accountId} and livemode = ${livemode} and day >= ${from} and day <= ${to} ${ofCurrency(currency)}
          group by day, currency, method, status, paid
          order by day collate "C", currency collate "C", method collate "C", status collate "C", paid`,
      );
    },
    async payTimeBuckets(accountId, livemode, w, currency) {
      const cur = ofCurrency(currency);
      const rows = rowsOf<{ bucket: number; n: number }>(
        await ctx.sql`select bucket, sum(n) as n from (
            select bucket, count as n from payment_pay_time_hist
              where account_id = ${accountId} and livemode = ${livemode} and day >= ${w.head[0]} and day <= ${w.head[1]} ${cur}
            union all
            select bucket, count as n from payment_pay_time_hist
              where account_id = ${accountId} and livemode = ${livemode} and day >= ${w.tail[0]} and day <= ${w.tail[1]} ${cur}
            union all
            select bucket, count as n from payment_pay_time_hist_monthly
              where account_id = ${accountId} and livemode = ${livemode} and month >= ${w.months[0]} and month <= ${w.months[1]} ${cur}
          ) h group by bucket order by bucket`,
      );
      const out: PayTimeBucket[] = [];
      for (const r of rows) if (r.n > 0) out.push({ seconds: bucketSeconds(r.bucket), n: r.n });
      return out;
    },
  };
}
