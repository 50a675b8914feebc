/** Accounts, their users (dashboard members) and API keys. Settings are the operator's (extensions.md). */
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  payerLockEnabled: integer("payer_lock_enabled", { mode: "boolean" }).notNull().default(false),
  /** Default Pix charge window in seconds (60-86400). */
  defaultExpiresIn: integer("default_expires_in").notNull().default(3600),
  pixFeeBps: integer("pix_fee_bps").notNull().default(0),
  /** Fixed Pix fee in centavos. */
  pixFeeFixed: integer("pix_fee_fixed").notNull().default(0),
  settlementDelaySeconds: integer("settlement_delay_seconds").notNull().default(86400),
  customerVelocityMax: integer("customer_velocity_max"),
  accountVelocityMax: integer("account_velocity_max"),
  velocityWindowSeconds: integer("velocity_window_seconds").notNull().default(3600),
  /** Merchant's registered legal name (razão social), printed on receipts and boletos. */
  legalName: text("legal_name"),
  /** Merchant's CNPJ or CPF, normalised (digits, or the 14 characters of an alphanumeric CNPJ). */
  taxId: text("tax_id"),
  /** Merchant's trade name (nome fantasia) shown to payers on the checkout and receipts; null = the account name. */
  tradeName: text("trade_name"),
  /** Support e-mail shown to payers (normalised), null until set. */
  supportEmail: text("support_email"),
  /** Support phone in E.164 (`+5511987654321`), null until set. */
  supportPhone: text("support_phone"),
  /** Set by the operator: the merchant may no longer change the profile (PATCH /v1/account/profile -> 403 `profile_locked`). */
  profileLocked: integer("profile_locked", { mode: "boolean" }).notNull().default(false),
  /** Fixed fee of a payout (and of a cashout refund with passFeeToTenant), centavos. */
  payoutFeeFixed: integer("payout_fee_fixed").notNull().default(0),
  /** Most a day (São Paulo) of payouts may sum, centavos; null = no limit. */
  payoutDailyLimit: integer("payout_daily_limit"),
  /** Seconds a payout waits `pending` (cancellable) before it is sent (0-86400). */
  payoutDelaySeconds: integer("payout_delay_seconds").notNull().default(0),
  createdAt: integer("created_at").notNull(),
});

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    /** OWNER | ADMIN | DEVELOPER | VIEWER */
    role: text("role").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email), index("users_account_idx").on(t.accountId)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    /** "test" | "live" */
    mode: text("mode").notNull(),
    /** SHA-256 hex of the full cleartext key; the cleartext itself is never stored. */
    fingerprint: text("fingerprint").notNull(),
    prefix: text("prefix").notNull(),
    label: text("label").notNull().default(""),
    createdBy: text("created_by"),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_fingerprint_uq").on(t.fingerprint), index("api_keys_account_idx").on(t.accountId)],
);
