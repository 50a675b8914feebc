/**
 * The one underlying record behind `/v1/charges` (public Charge, `ch_<raw id>`) and
 * `/v1/payments` (Transaction, raw id): one row, two wire formats. Its status uses the
 * transaction vocabulary; the public charge status is derived (src/domain/charges/model.ts).
 */
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

export const transactions = sqliteTable(
  "transactions",
  {
    /** Raw id (32 hex, UUIDv7): unguessable and time-ordered. */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    /** Minor unit (centavos for BRL). */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    /** Transaction status: PENDING, WAITING_PAYMENT, PROCESSING, PAID, APPROVED, REFUSED, CANCELLED, EXPIRED, REFUNDED, CHARGEBACK, DISPUTE. */
    status: text("status").notNull(),
    /** JSON array of offered methods, e.g. ["PIX"]. */
    paymentMethods: text("payment_methods").notNull(),
    /** Method the payer used, once paid. */
    paidWith: text("paid_with"),
    /** "charges" when created through /v1/charges or /v1/pix/charges, "payments" through /v1/payments. */
    origin: text("origin").notNull(),
    customerId: text("customer_id"),
    customerName: text("customer_name"),
    /** Digits only for CPF/CNPJ; as sent for other tax ids. */
    customerDocument: text("customer_document"),
    customerEmail: text("customer_email"),
    customerPhone: text("customer_phone"),
    /** Payer-lock document; echoed only when the lock applies (`payerLockApplied`). */
    expectedPayerTaxId: text("expected_payer_tax_id"),
    payerLockApplied: integer("payer_lock_applied", { mode: "boolean" }).notNull().default(false),
    /** JSON object: merchant metadata plus informational blocks (`failure`, `med`). */
    metadata: text("metadata").notNull().default("{}"),
    /** Per-transaction webhook URL override (payments group). */
    webhookUrl: text("webhook_url"),
    /** Pix: EMV payload, cob txid, location (no scheme), expiry (epoch ms). */
    pixBrCode: text("pix_br_code"),
    pixTxid: text("pix_txid"),
    pixLocation: text("pix_location"),
    expiresAt: integer("expires_at"),
    /**
     * Live Pix: the provider connection (`pix_provider_connections.id`) that created the cob; its
     * status checks go through that connection even after it was deleted or replaced. Null for
     * sandbox charges (and live charges of other providers).
     */
    providerConnectionId: text("provider_connection_id"),
    /** Seconds of the Pix QR lifetime requested at creation. */
    ttlSeconds: integer("ttl_seconds"),
    /** JSON object of method-specific details (multibanco, boleto, crypto, card...). */
    methodDetails: text("method_details").notNull().default("{}"),
    /** Pix end-to-end id of the settling payment. */
    endToEndId: text("end_to_end_id"),
    /** Platform fee in minor units, set when paid (never on the public charge). */
    platformFee: integer("platform_fee"),
    /** Sum of refunds that are not FAILED (minor units). */
    refundedAmount: integer("refunded_amount").notNull().default(0),
    paidAt: integer("paid_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("tx_account_created_idx").on(t.accountId, t.livemode, t.createdAt),
    index("tx_account_status_idx").on(t.accountId, t.livemode, t.status, t.createdAt),
    index("tx_account_doc_idx").on(t.accountId, t.livemode, t.customerDocument, t.createdAt),
    // Partial: most rows have no txid (non-Pix) or no end-to-end id yet (unpaid), and an index
    // entry per NULL costs every insert a B-tree write. `col = ?` lookups still use them.
    uniqueIndex("tx_txid_uq").on(t.pixTxid).where(sql`${t.pixTxid} is not null`),
    uniqueIndex("tx_e2e_uq").on(t.endToEndId).where(sql`${t.endToEndId} is not null`),
    // GET /v1/payments?paymentMethod= (src/domain/payments/list.ts): its total counts the unpaid
    // rows offering the method here (covering: `paid_with` is in it so that the count never reads
    // the table; paid rows come from payment_daily_stats). Partial:
    // a row leaves it when paid, and a Pix charge's entries share one key, appended in rowid order.
    index("tx_account_unpaid_methods_idx")
      .on(t.accountId, t.livemode, t.paidWith, t.paymentMethods)
      .where(sql`${t.paidWith} is null`),
    // The expiry sweep (src/domain/charges/expiry.ts): waiting charges by expiry time only.
    index("tx_waiting_expiry_idx")
      .on(t.expiresAt)
      .where(sql`${t.status} in ('PENDING', 'WAITING_PAYMENT') and ${t.expiresAt} is not null`),
  ],
);

/**
 * Signing keys of the Pix location payloads (JWS of the BCB CobPayload), one active key per data
 * directory, generated on first use. Private key as JWK JSON; the public JWK is served as a JWKS.
 */
export const pixSigningKeys = sqliteTable("pix_signing_keys", {
  kid: text("kid").primaryKey(),
  alg: text("alg").notNull(),
  privateJwk: text("private_jwk").notNull(),
  publicJwk: text("public_jwk").notNull(),
  createdAt: integer("created_at").notNull(),
});

/**
 * Sandbox provider faults (extensions.md `POST /v1/test_helpers/provider_faults`): the next
 * `remaining` sandbox charge creations of the account meet a rejecting or unreachable provider.
 */
export const sandboxProviderFaults = sqliteTable("sandbox_provider_faults", {
  accountId: text("account_id").primaryKey(),
  /** "reject" | "unavailable" */
  mode: text("mode").notNull(),
  remaining: integer("remaining").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
