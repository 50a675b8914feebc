/**
 * Tables of the payments group: refunds, and the daily aggregates behind
 * `GET /v1/payments/stats` and `/metrics` (maintained by SQLite triggers on `transactions`, so
 * every status change updates them in its own transaction; src/store/sqlite/stats-aggregates.ts).
 */
import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";

export const refunds = sqliteTable(
  "refunds",
  {
    /** `re_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    /** Raw id of the refunded transaction. */
    transactionId: text("transaction_id").notNull(),
    /** Minor units, > 0. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    /** PENDING | IN_PROGRESS | REFUNDED | FAILED */
    status: text("status").notNull(),
    reason: text("reason"),
    /** PIX only: "devolution" | "cashout"; null for other methods. */
    strategy: text("strategy"),
    passFeeToTenant: integer("pass_fee_to_tenant", { mode: "boolean" }).notNull().default(false),
    destinationKey: text("destination_key"),
    /** Pix-out fee debited from the merchant (cashout + passFeeToTenant), minor units. */
    pixOutFee: integer("pix_out_fee").notNull().default(0),
    /** Method refunded (the transaction's `paidWith`). */
    method: text("method").notNull(),
    /** Provider's own refund id (Pix devolution `D...` id in the sandbox); never returned. */
    providerRefundId: text("provider_refund_id"),
    failureReason: text("failure_reason"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** When the refund reached REFUNDED. */
    refundedAt: integer("refunded_at"),
  },
  (t) => [
    index("refunds_tx_idx").on(t.transactionId, t.createdAt),
    index("refunds_account_idx").on(t.accountId, t.livemode, t.createdAt),
    uniqueIndex("refunds_provider_uq").on(t.providerRefundId),
  ],
);

/**
 * Per account, mode, São Paulo calendar day of creation, currency, paid-with method and current
 * status: how many transactions and their amounts. `method` is "" until paid. `refunded` sums
 * `transactions.refunded_amount`; `paid` counts rows whose `paid_at` is set.
 */
export const paymentDailyStats = sqliteTable(
  "payment_daily_stats",
  {
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    /** `YYYY-MM-DD` in America/Sao_Paulo (UTC-3) of `created_at`. */
    day: text("day").notNull(),
    currency: text("currency").notNull(),
    method: text("method").notNull(),
    status: text("status").notNull(),
    /** 1 when the rows were paid at some point (`paid_at` set). */
    paid: integer("paid").notNull(),
    count: integer("count").notNull().default(0),
    amount: integer("amount").notNull().default(0),
    refunded: integer("refunded").notNull().default(0),
    /**
     * Write shard (issue 17): 0 on SQLite (one writer); on PostgreSQL each database session adds
     * to its own shard row so concurrent writers never wait on one row. Readers sum the shards.
     */
    shard: integer("shard").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.livemode, t.day, t.currency, t.method, t.status, t.paid, t.shard] })],
);

/**
 * Time-to-pay histogram per account, mode, creation day and currency: `bucket` =
 * floor(ln(1 + seconds) / ln(1.05)), so a bucket spans 5% of its value (median precision).
 */
export const paymentPayTimeHist = sqliteTable(
  "payment_pay_time_hist",
  {
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    day: text("day").notNull(),
    currency: text("currency").notNull(),
    bucket: integer("bucket").notNull(),
    count: integer("count").notNull().default(0),
    /**
     * Write shard (issue 17): 0 on SQLite (one writer); on PostgreSQL each database session adds
     * to its own shard row so concurrent writers never wait on one row. Readers sum the shards.
     */
    shard: integer("shard").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.livemode, t.day, t.currency, t.bucket, t.shard] })],
);

/**
 * Monthly roll-up of `payment_pay_time_hist` (`month` = `YYYY-MM` of the São Paulo creation day),
 * kept by the same triggers: long windows read whole months here and only their partial edge
 * months day by day, so the median costs O(months + edge days), not O(days).
 */
export const paymentPayTimeHistMonthly = sqliteTable(
  "payment_pay_time_hist_monthly",
  {
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    month: text("month").notNull(),
    currency: text("currency").notNull(),
    bucket: integer("bucket").notNull(),
    count: integer("count").notNull().default(0),
    /**
     * Write shard (issue 17): 0 on SQLite (one writer); on PostgreSQL each database session adds
     * to its own shard row so concurrent writers never wait on one row. Readers sum the shards.
     */
    shard: integer("shard").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.livemode, t.month, t.currency, t.bucket, t.shard] })],
);
