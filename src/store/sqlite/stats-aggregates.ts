/**
 * Daily aggregates of transactions for stats and metrics, kept by SQLite triggers on
 * `transactions` (insert, update of the counted columns, delete): every write that changes a
 * transaction's status, amount, refunds or payment updates its aggregate row in the same
 * transaction, whoever makes it (charges, payments, MED, sandbox helpers). Cost per write: two
 * primary-key upserts. Every row is write shard 0 (the `shard` key column exists for PostgreSQL,
 * where each database session writes its own shard; src/store/pg/). The triggers are `_v3`
 * since the shard joined the key (migration 0011): a database with older triggers gets these and
 * its aggregates rebuilt once, at start. Days are America/Sao_Paulo calendar days at the fixed offset UTC-3 (Brazil
 * has had no daylight saving time since 2019).
 */
import type { Db } from "./client";

/** SQL of the São Paulo creation day of row alias `r`. */
const day = (r: string) => `strftime('%Y-%m-%d', ${r}.created_at / 1000 - 10800, 'unixepoch')`;
/** SQL of the time-to-pay bucket of row alias `r` (5% wide: bucket b holds [1.05^b - 1, 1.05^(b+1) - 1) seconds). */
const bucket = (r: string) => `CAST(ln(1.0 + max(0, (${r}.paid_at - ${r}.created_at) / 1000.0)) / ln(1.05) AS INTEGER)`;
const STATS_KEY = "account_id, livemode, day, currency, method, status, paid";
const HIST_KEY = "account_id, livemode, day, currency, bucket";
const MONTH_KEY = "account_id, livemode, month, currency, bucket";

function addStats(r: string): string {
  return `INSERT INTO payment_daily_stats (${STATS_KEY}, count, amount, refunded)
    SELECT ${r}.account_id, ${r}.livemode, ${day(r)}, ${r}.currency, coalesce(${r}.paid_with, ''), ${r}.status, ${r}.paid_at IS NOT NULL, 1, ${r}.amount, ${r}.refunded_amount WHERE true
    ON CONFLICT (${STATS_KEY}, shard) DO UPDATE SET count = count + 1, amount = amount + excluded.amount, refunded = refunded + excluded.refunded;`;
}
function subStats(r: string): string {
  return `UPDATE payment_daily_stats SET count = count - 1, amount = amount - ${r}.amount, refunded = refunded - ${r}.refunded_amount
    WHERE account_id = ${r}.account_id AND livemode = ${r}.livemode AND day = ${day(r)} AND currency = ${r}.currency
      AND method = coalesce(${r}.paid_with, '') AND status = ${r}.status AND paid = (${r}.paid_at IS NOT NULL);`;
}
function addHist(r: string): string {
  return `INSERT INTO payment_pay_time_hist (${HIST_KEY}, count)
    SELECT ${r}.account_id, ${r}.livemode, ${day(r)}, ${r}.currency, ${bucket(r)}, 1 WHERE ${r}.paid_at IS NOT NULL
    ON CONFLICT (${HIST_KEY}, shard) DO UPDATE SET count = count + 1;
    INSERT INTO payment_pay_time_hist_monthly (${MONTH_KEY}, count)
    SELECT ${r}.account_id, ${r}.livemode, substr(${day(r)}, 1, 7), ${r}.currency, ${bucket(r)}, 1 WHERE ${r}.paid_at IS NOT NULL
    ON CONFLICT (${MONTH_KEY}, shard) DO UPDATE SET count = count + 1;`;
}
function subHist(r: string): string {
  return `UPDATE payment_pay_time_hist SET count = count - 1
    WHERE ${r}.paid_at IS NOT NULL AND account_id = ${r}.account_id AND livemode = ${r}.livemode AND day = ${day(r)}
      AND currency = ${r}.currency AND bucket = ${bucket(r)};
    UPDATE payment_pay_time_hist_monthly SET count = count - 1
    WHERE ${r}.paid_at IS NOT NULL AND account_id = ${r}.account_id AND livemode = ${r}.livemode AND month = substr(${day(r)}, 1, 7)
      AND currency = ${r}.currency AND bucket = ${bucket(r)};`;
}

const COUNTED = [
  "status",
  "paid_with",
  "paid_at",
  "amount",
  "refunded_amount",
  "currency",
  "created_at",
  "account_id",
  "livemode",
];

const TRIGGERS: Record<string, string> = {
  payment_stats_v3_ai: `CREATE TRIGGER payment_stats_v3_ai AFTER INSERT ON transactions BEGIN ${addStats("NEW")} ${addHist("NEW")} END`,
  payment_stats_v3_au: `CREATE TRIGGER payment_stats_v3_au AFTER UPDATE OF ${COUNTED.join(", ")} ON transactions
    WHEN ${COUNTED.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(" OR ")}
    BEGIN ${subStats("OLD")} ${addStats("NEW")} ${subHist("OLD")} ${addHist("NEW")} END`,
  payment_stats_v3_ad: `CREATE TRIGGER payment_stats_v3_ad AFTER DELETE ON transactions BEGIN ${subStats("OLD")} ${subHist("OLD")} END`,
};

/**
 * Creates the triggers when missing (idempotent; run at start after migrations, src/deps.ts) and,
 * when they were missing, rebuilds both aggregate tables from `transactions` in the same
 * transaction (a one-time full scan). Returns true when it (re)built them.
 */
export function installPaymentAggregates(db: Db): boolean {
  const sqlite = db.$client;
  const have = new Set(
    (
      sqlite.query("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'payment_stats_%'").all() as {
        name: string;
      }[]
    ).map((r) => r.name),
  );
  if (Object.keys(TRIGGERS).every((n) => have.has(n)) && have.size === Object.keys(TRIGGERS).length) return false;
  sqlite
    .transaction(() => {
      for (const name of [...have, ...Object.keys(TRIGGERS)]) sqlite.exec(`DROP TRIGGER IF EXISTS ${name}`);
      rebuildPaymentAggregates(db);
      for (const ddl of Object.values(TRIGGERS)) sqlite.exec(ddl);
    })
    .immediate();
  return true;
}

/** Recomputes both aggregate tables from `transactions` (full scan; used at install and by the bench). */
export function rebuildPaymentAggregates(db: Db): void {
  const sqlite = db.$client;
  sqlite.exec(
    "DELETE FROM payment_daily_stats; DELETE FROM payment_pay_time_hist; DELETE FROM payment_pay_time_hist_monthly;",
  );
  sqlite.exec(`INSERT INTO payment_daily_stats (${STATS_KEY}, count, amount, refunded)
    SELECT t.account_id, t.livemode, ${day("t")}, t.currency, coalesce(t.paid_with, ''), t.status, t.paid_at IS NOT NULL, count(*), sum(t.amount), sum(t.refunded_amount)
    FROM transactions t GROUP BY 1, 2, 3, 4, 5, 6, 7`);
  sqlite.exec(`INSERT INTO payment_pay_time_hist (${HIST_KEY}, count)
    SELECT t.account_id, t.livemode, ${day("t")}, t.currency, ${bucket("t")}, count(*)
    FROM transactions t WHERE t.paid_at IS NOT NULL GROUP BY 1, 2, 3, 4, 5`);
  sqlite.exec(`INSERT INTO payment_pay_time_hist_monthly (${MONTH_KEY}, count)
    SELECT account_id, livemode, substr(day, 1, 7), currency, bucket, sum(count) FROM payment_pay_time_hist GROUP BY 1, 2, 3, 4, 5`);
}
