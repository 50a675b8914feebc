/**
 * Tables of the med group: MED dispute cases, their evidence files, and the server-side secret
 * that signs evidence upload/view URLs (src/domain/med).
 */
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

export const medCases = sqliteTable(
  "med_cases",
  {
    /** `med_` + raw id (UUIDv7 hex, time-ordered). */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    /** Raw id of the disputed transaction (the charge is `ch_<transactionId>`). */
    transactionId: text("transaction_id").notNull(),
    /** med | chargeback | dispute | fraud */
    type: text("type").notNull(),
    /** open | appealed | accepted | rejected | closed (src/domain/med/model.ts). */
    status: text("status").notNull(),
    /** Disputed amount reported by the payer's bank, minor unit. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    /** Amount moved from available to retained by `holdMed` (0 when nothing was held). */
    heldAmount: integer("held_amount").notNull().default(0),
    reason: text("reason"),
    /** scam | unauthorized | coercion | invasion | other (informational `metadata.med.method`). */
    method: text("method").notNull().default("other"),
    /** End-to-end id of the disputed Pix (`metadata.med.referenceId`). */
    referenceId: text("reference_id"),
    /** Provider's id of the infraction notice; replays of the same notice are no-ops. */
    externalId: text("external_id"),
    payerName: text("payer_name"),
    payerDocument: text("payer_document"),
    /** Epoch ms; null when unknown. */
    responseDeadline: integer("response_deadline"),
    evidenceRequestedAt: integer("evidence_requested_at"),
    appealReason: text("appeal_reason"),
    appealedAt: integer("appealed_at"),
    /** Confirmed evidence files only. */
    evidenceCount: integer("evidence_count").notNull().default(0),
    /** refunded_to_merchant | closed_without_refund | lost; null while open or appealed. */
    moneyOutcome: text("money_outcome"),
    /** Ruling that closed the case: upheld | merchant_favor | withdrawn | closed_without_refund | accepted | deadline. */
    resolution: text("resolution"),
    /**
     * Operations review flag (never public): null, or why the case waits for the operator
     * (`amount_mismatch`). The case keeps its status until the operator rules.
     */
    review: text("review"),
    /** Transaction status before the MED (restored when the merchant wins), e.g. PAID. */
    chargeStatusBefore: text("charge_status_before").notNull(),
    openedAt: integer("opened_at").notNull(),
    closedAt: integer("closed_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("med_cases_account_created_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
    index("med_cases_tx_idx").on(t.transactionId),
    uniqueIndex("med_cases_external_uq").on(t.accountId, t.externalId),
  ],
);

export const medEvidence = sqliteTable(
  "med_evidence",
  {
    /** `ev_` + raw id; also the id of the upload-request object. */
    id: text("id").primaryKey(),
    caseId: text("case_id").notNull(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    fileName: text("file_name").notNull(),
    /** Declared size in bytes (bound by the upload signature). */
    fileSize: integer("file_size").notNull(),
    mimeType: text("mime_type").notNull(),
    /** merchant | partner | platform */
    uploadedBy: text("uploaded_by").notNull(),
    /** requested (URL handed out) | received (bytes stored by the PUT) | confirmed (complete called). */
    state: text("state").notNull(),
    /** Epoch ms after which the upload URL (and completion of an unconfirmed upload) is refused. */
    uploadExpiresAt: integer("upload_expires_at").notNull(),
    /** Size and SHA-256 (hex) of the bytes actually stored, set by the PUT. */
    storedSize: integer("stored_size"),
    sha256: text("sha256"),
    /** Path of the file relative to the evidence storage root. */
    storageKey: text("storage_key"),
    receivedAt: integer("received_at"),
    /** When complete confirmed the upload (public `uploaded_at`). */
    uploadedAt: integer("uploaded_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("med_evidence_case_idx").on(t.caseId, t.state, t.uploadedAt)],
);

/** One row per named secret (`evidence_urls`): HMAC key of the signed evidence URLs. */
export const medSecrets = sqliteTable("med_secrets", {
  name: text("name").primaryKey(),
  secret: text("secret").notNull(),
  createdAt: integer("created_at").notNull(),
});
