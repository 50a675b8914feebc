/**
 * Allowlist serializers of the med group: the public med_case and med_case_evidence objects
 * (interface.md "MED case", "MED evidence"), the upload-request object and the `med.resolved`
 * event payload. Nothing else of a row (review flags, storage keys, hashes, payer data) leaves.
 */
import { iso } from "../../lib/clock";
import type { MedCaseRow, MedEvidenceRow } from "./repo";

const isoOrNull = (v: number | null) => (v === null ? null : iso(v));

/** Public med_case (fields of interface.md "MED case", in that order). */
export function toPublicCase(row: MedCaseRow) {
  return {
    id: row.id,
    object: "med_case" as const,
    type: row.type,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    charge_id: `ch_${row.transactionId}`,
    reason: row.reason,
    response_deadline: isoOrNull(row.responseDeadline),
    evidence_requested_at: isoOrNull(row.evidenceRequestedAt),
    appeal_reason: row.appealReason,
    appealed_at: isoOrNull(row.appealedAt),
    evidence_count: row.evidenceCount,
    money_outcome: row.moneyOutcome,
    opened_at: iso(row.openedAt),
    closed_at: isoOrNull(row.closedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export type PublicMedCase = ReturnType<typeof toPublicCase>;

/** Public med_case_evidence; `viewUrl` is the signed download link (valid 5 minutes). */
export function toPublicEvidence(row: MedEvidenceRow, viewUrl: string) {
  return {
    id: row.id,
    object: "med_case_evidence" as const,
    file_name: row.fileName,
    file_size: row.fileSize,
    mime_type: row.mimeType,
    uploaded_by: row.uploadedBy,
    created_at: iso(row.createdAt),
    uploaded_at: isoOrNull(row.uploadedAt),
    view_url: viewUrl,
  };
}

/** Upload-request object (step 1 of the evidence upload). */
export function toUploadRequest(row: MedEvidenceRow, uploadUrl: string, expiresIn: number) {
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
