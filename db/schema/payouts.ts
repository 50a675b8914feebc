/**
 * Tables of money out (extensions.md "Payouts (money out)"): the registered destinations money may
 * be sent to, and the payouts themselves. Amounts in centavos, times epoch ms.
 */
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Where an account may send money (`pd_...`), account-wide (both modes); removal is a soft delete. */
export const payoutDestinations = sqliteTable(
  "payout_destinations",
  {
    /** `pd_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    /** pix_key | bank_account */
    type: text("type").notNull(),
    /** Holder's name (required for bank accounts). */
    name: text("name"),
    /** Holder's CPF (11 digits) or CNPJ (14), normalised; shown masked. */
    taxId: text("tax_id"),
    /** pix_key: the key as normalised (CPF/CNPJ digits, lower-case e-mail, +55 E.164 phone, lower-case EVP). */
    pixKey: text("pix_key"),
    /** pix_key: cpf | cnpj | email | phone | evp */
    pixKeyType: text("pix_key_type"),
    /** bank_account: the bank's ISPB, 8 digits. */
    ispb: text("ispb"),
    /** bank_account: branch, 1-4 digits. */
    branch: text("branch"),
    /** bank_account: account number with its check digit, digits only. */
    account: text("account"),
    /** bank_account: checking | savings */
    accountType: text("account_type"),
    /** User who registered it (`usr_...`). */
    createdBy: text("created_by"),
    createdAt: integer("created_at").notNull(),
    /** Set when removed: a removed destination takes no new payouts; past payouts keep their snapshot. */
    deletedAt: integer("deleted_at"),
  },
  (t) => [index("payout_destinations_account_idx").on(t.accountId, t.createdAt)],
);

/** One payout (`po_...`): `amount + fee` left `available` when it was accepted. */
export const payouts = sqliteTable(
  "payouts",
  {
    /** `po_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    /** Centavos, >= 1. */
    amount: integer("amount").notNull(),
    /** Platform fee (the account's `payout_fee_fixed` at creation), centavos. */
    fee: integer("fee").notNull().default(0),
    currency: text("currency").notNull(),
    /** pending | processing | paid | failed | cancelled (src/domain/payouts/model.ts) */
    status: text("status").notNull(),
    destinationId: text("destination_id").notNull(),
    /** JSON: the destination as it was when the payout was created (the public view's fields + the raw tax id for the PSP). */
    destination: text("destination").notNull(),
    description: text("description"),
    /** JSON object. */
    metadata: text("metadata").notNull().default("{}"),
    /** Pix end-to-end id (32 characters) once the PSP gives it. */
    endToEndId: text("end_to_end_id"),
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    /** Live: the provider connection (`ppc_...`) that sends it; null in the sandbox. */
    providerConnectionId: text("provider_connection_id"),
    /** The PSP's idempotency key (Efí's `idEnvio`): the id without its prefix. */
    sendId: text("send_id").notNull(),
    /** Send calls recorded so far (each recorded before it is made): resumed when > 1. */
    sendAttempts: integer("send_attempts").notNull().default(0),
    /** When the PSP acknowledged the send (then only status queries follow), or null. */
    sentAt: integer("sent_at"),
    /** When it may be sent (created + the account's `payout_delay_seconds`). */
    dueAt: integer("due_at").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** Handed to the PSP: the send intent recorded (status queries back off from it). */
    processingAt: integer("processing_at"),
    paidAt: integer("paid_at"),
    failedAt: integer("failed_at"),
    cancelledAt: integer("cancelled_at"),
  },
  (t) => [
    index("payouts_account_idx").on(t.accountId, t.livemode, t.createdAt),
    uniqueIndex("payouts_send_id_uq").on(t.sendId),
  ],
);
