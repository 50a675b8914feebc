/**
 * SQLite implementation of the stats repository (src/store/port/stats.ts): prepared primary-key range reads of the
 * aggregates.
 */
import { bucketSeconds, type PayTimeBucket, type StatsCell, type StatsRepo } from "../port/stats";
import type { SqliteContext } from "./context";

const CELLS = `SELECT day, currency, method, status, paid, count, amount, refunded FROM payment_daily_stats
      WHERE account_id = ?1 AND livemode = ?2 AND day >= ?3 AND day <= ?4`;
const CELLS_OF_CURRENCY = `${CELLS} AND currency = ?5`;

const hist = (cur: string) => `SELECT bucket, sum(n) AS n FROM (
        SELECT bucket, count AS n FROM payment_pay_time_hist WHERE account_id = ?1 AND livemode = ?2 AND day >= ?3 AND day <= ?4${cur}
        UNION ALL
        SELECT bucket, count AS n FROM payment_pay_time_hist WHERE account_id = ?1 AND livemode = ?2 AND day >= ?5 AND day <= ?6${cur}
        UNION ALL
        SELECT bucket, count AS n FROM payment_pay_time_hist_monthly WHERE account_id = ?1 AND livemode = ?2 AND month >= ?7 AND month <= ?8${cur}
      ) GROUP BY bucket ORDER BY bucket`;
const HIST = hist("");
const HIST_OF_CURRENCY = hist(" AND currency = ?9");

/** Builds the stats repository on the adapter's connection `ctx`. */
export function statsRepo(ctx: SqliteContext): StatsRepo {
  return {
    // The key is unique (account, mode, day, currency, method, status, paid): no grouping.
    async cells(accountId, livemode, from, to, currency) {
      const mode = livemode ? 1 : 0;
      return (
        currency
          ? ctx.stmt(CELLS_OF_CURRENCY).all(accountId, mode, from, to, currency)
          : ctx.stmt(CELLS).all(accountId, mode, from, to)
      ) as StatsCell[];
    },
    async payTimeBuckets(accountId, livemode, w, currency) {
      const args = [accountId, livemode ? 1 : 0, ...w.head, ...w.tail, ...w.months];
      const rows = (currency ? ctx.stmt(HIST_OF_CURRENCY).all(...args, currency) : ctx.stmt(HIST).all(...args)) as {
        bucket: number;
        n: number;
      }[];
      const out: PayTimeBucket[] = [];
      for (const r of rows) if (r.n > 0) out.push({ seconds: bucketSeconds(r.bucket), n: r.n });
      return out;
    },
  };
}
