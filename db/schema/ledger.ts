/**
 * Tables of the double-entry ledger: journal entries, their lines, the materialised balances
 * (one row per merchant account, mode, currency and ledger account) and the pending tranches.
 * Amounts are integers in the minor unit; times are epoch ms.
 */
import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";

/** One posting: two or more lines summing to zero per currency, caused by one business fact. */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: text("id").primaryKey(),
    /** Merchant account the entry belongs to. */
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    currency: text("currency").notNull(),
    /** charge_payment | tranche_release | refund | refund_restore | med_hold | med_settle | payout | payout_paid | payout_reversal */
    kind: text("kind").notNull(),
    /** What caused it: "charge" | "tranche" | "refund" | "med_case". */
    causeKind: text("cause_kind").notNull(),
    causeId: text("cause_id").notNull(),
    /** `<kind>:<cause id>`: the same cause can never post twice. */
    idempotencyKey: text("idempotency_key").notNull(),
    /** Optional JSON with extra facts (e.g. the MED outcome). */
    meta: text("meta"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("ledger_entries_key_uq").on(t.idempotencyKey),
    index("ledger_entries_cause_idx").on(t.causeKind, t.causeId),
    /** The statement (issue 27): one merchant's entries newest first, cursor `(created_at, id)`. */
    index("ledger_entries_statement_idx").on(t.accountId, t.livemode, t.currency, t.createdAt, t.id),
  ],
);

/** A signed movement of one ledger account: positive increases that account's balance. */
export const ledgerLines = sqliteTable(
  "ledger_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    entryId: text("entry_id")
      .notNull()
      .references(() => ledgerEntries.id),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    currency: text("currency").notNull(),
    /** available | pending | retained | platform_fee_revenue | external_payer */
    ledgerAccount: text("ledger_account").notNull(),
    amount: integer("amount").notNull(),
    /** Set on every `pending` line: the tranche it belongs to. */
    trancheId: text("tranche_id"),
  },
  (t) => [
    index("ledger_lines_entry_idx").on(t.entryId),
    index("ledger_lines_bucket_idx").on(t.accountId, t.livemode, t.currency, t.ledgerAccount),
  ],
);

/** Materialised balance of one ledger account; updated in the same transaction as its lines. */
export const ledgerBalances = sqliteTable(
  "ledger_balances",
  {
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    currency: text("currency").notNull(),
    ledgerAccount: text("ledger_account").notNull(),
    balance: integer("balance").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
    /**
     * Write shard (issue 17): 0 on SQLite (one writer); on PostgreSQL a credit adds to the shard
     * row of its database session, so concurrent payments of one merchant never wait on one row.
     * The balance of a ledger account is the sum of its shards.
     */
    shard: integer("shard").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.livemode, t.currency, t.ledgerAccount, t.shard] })],
);

/** The net of one paid charge, held in `pending` until `releaseAt`. */
export const ledgerTranches = sqliteTable(
  "ledger_tranches",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    currency: text("currency").notNull(),
    transactionId: text("transaction_id").notNull(),
    /** Net amount credited to pending at payment. */
    amount: integer("amount").notNull(),
    /** Still pending (amount minus refunds drawn from it); 0 once released. */
    remaining: integer("remaining").notNull(),
    releaseAt: integer("release_at").notNull(),
    releasedAt: integer("released_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("ledger_tranches_tx_uq").on(t.accountId, t.livemode, t.transactionId),
    index("ledger_tranches_next_idx").on(t.accountId, t.livemode, t.currency, t.releasedAt, t.releaseAt),
  ],
);
