/**
 * Allowlist serializers of the med group: the public med_case and med_case_evidence objects
 * (interface.md "MED case", "MED evidence"), the upload-request object and the `med.resolved`
 * event payload. Nothing else of a row (review flags, storage keys, hashes, payer data) leaves.
 */
import { iso } from "../../lib/clock";
import type { MedCaseRow, MedEvidenceRow } from "../../store/rows";
import {
  Closed,
  Currency,
  DateTime,
  Money,
  Nullable,
  OneOf,
  Type,
  Url,
  View,
  type Static,
} from "../../lib/view-schema";
import {
  EVIDENCE_MIME_TYPES,
  MED_CASE_STATUSES,
  MED_CASE_TYPES,
  MONEY_OUTCOMES,
  type MedCaseStatus,
  type MedCaseType,
  type MoneyOutcome,
} from "./model";

const isoOrNull = (v: number | null) => (v === null ? null : iso(v));

/** The med_case object (interface.md "MED case"). */
export const MedCaseSchema = View("MedCase", {
  id: Type.String({ examples: ["med_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  object: Type.Literal("med_case"),
  type: OneOf(MED_CASE_TYPES),
  status: OneOf(MED_CASE_STATUSES),
  amount: Money({ description: "Disputed amount, minor units." }),
  currency: Currency(),
  charge_id: Type.String({ description: "`ch_` id of the disputed charge." }),
  reason: Nullable(Type.String()),
  response_deadline: Nullable(DateTime()),
  evidence_requested_at: Nullable(DateTime()),
  appeal_reason: Nullable(Type.String()),
  appealed_at: Nullable(DateTime()),
  evidence_count: Type.Integer({ minimum: 0 }),
  money_outcome: Nullable(OneOf(MONEY_OUTCOMES)),
  opened_at: DateTime(),
  closed_at: Nullable(DateTime()),
  created_at: DateTime(),
  updated_at: DateTime(),
});

/** GET /v1/med/cases: a cursor page. */
export const MedCaseListSchema = View("MedCaseList", {
  object: Type.Literal("list"),
  data: Type.Array(MedCaseSchema),
  has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String()),
});

/** The med_case_evidence object (interface.md "MED evidence"). */
export const MedEvidenceSchema = View("MedEvidence", {
  id: Type.String({ examples: ["ev_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  object: Type.Literal("med_case_evidence"),
  file_name: Type.String(),
  file_size: Type.Integer({ minimum: 1, description: "Bytes." }),
  mime_type: OneOf(EVIDENCE_MIME_TYPES),
  uploaded_by: Type.String(),
  created_at: DateTime(),
  uploaded_at: Nullable(DateTime()),
  view_url: Url({ description: "Signed download link, valid 5 minutes." }),
});

/** GET /v1/med/cases/{id}/evidence. */
export const MedEvidenceListSchema = View("MedEvidenceList", {
  object: Type.Literal("list"),
  data: Type.Array(MedEvidenceSchema),
});

/** 201 of POST /v1/med/cases/{id}/evidence: where and how to PUT the file. */
export const UploadRequestSchema = View("MedEvidenceUpload", {
  id: Type.String(),
  object: Type.Literal("med_case_evidence_upload"),
  upload_url: Url({ description: "Signed; valid `expires_in` seconds." }),
  upload_method: Type.Literal("PUT"),
  upload_headers: Closed({ "Content-Type": Type.String(), "Content-Length": Type.String() }),
  expires_in: Type.Integer({ description: "Seconds." }),
});

/** 200 of the PUT to `upload_url`. */
export const UploadReceiptSchema = View("MedEvidenceReceived", {
  id: Type.String(),
  received_bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({
    pattern: "^[0-9a-f]{64}$",
    examples: ["9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"],
  }),
});

/** Public med_case (fields of interface.md "MED case", in that order). */
export function toPublicCase(row: MedCaseRow): Static<typeof MedCaseSchema> {
  return {
    id: row.id,
    object: "med_case" as const,
    type: row.type as MedCaseType,
    status: row.status as MedCaseStatus,
    amount: row.amount,
    currency: row.currency,
    charge_id: `ch_${row.transactionId}`,
    reason: row.reason,
    response_deadline: isoOrNull(row.responseDeadline),
    evidence_requested_at: isoOrNull(row.evidenceRequestedAt),
    appeal_reason: row.appealReason,
    appealed_at: isoOrNull(row.appealedAt),
    evidence_count: row.evidenceCount,
    money_outcome: row.moneyOutcome as MoneyOutcome | null,
    opened_at: iso(row.openedAt),
    closed_at: isoOrNull(row.closedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export type PublicMedCase = ReturnType<typeof toPublicCase>;

/** Public med_case_evidence; `viewUrl` is the signed download link (valid 5 minutes). */
export function toPublicEvidence(row: MedEvidenceRow, viewUrl: string): Static<typeof MedEvidenceSchema> {
  return {
    id: row.id,
    object: "med_case_evidence" as const,
    file_name: row.fileName,
    file_size: row.fileSize,
    mime_type: row.mimeType as Static<typeof MedEvidenceSchema>["mime_type"],
    uploaded_by: row.uploadedBy,
    created_at: iso(row.createdAt),
    uploaded_at: isoOrNull(row.uploadedAt),
    view_url: viewUrl,
  };
}

/** Upload-request object (step 1 of the evidence upload). */
export function toUploadRequest(
  row: MedEvidenceRow,
  uploadUrl: string,
  expiresIn: number,
): Static<typeof UploadRequestSchema> {
  return {
    id: row.id,
    object: "med_case_evidence_upload" as const,
    upload_url: uploadUrl,
    upload_method: "PUT" as const,
    upload_headers: { "Content-Type": row.mimeType, "Content-Length": String(row.fileSize) },
    expires_in: expiresIn,
  };
}

/**
 * `data.object` of the `med.resolved` event: `{object: "med_resolution", med_case_id, charge_id,
 * status, money_outcome, amount, currency, resolved_at}`; `amount` is the disputed amount.
 */
export function toResolution(row: MedCaseRow) {
  return {
    object: "med_resolution" as const,
    med_case_id: row.id,
    charge_id: `ch_${row.transactionId}`,
    status: row.status,
    money_outcome: row.moneyOutcome,
    amount: row.amount,
    currency: row.currency,
    resolved_at: isoOrNull(row.closedAt),
  };
}
