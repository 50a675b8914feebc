/**
 * MED case state machine (interface.md "MED case status", extensions.md test helper `resolve`),
 * the vocabularies of the med resources, and the limits of evidence files.
 *
 *   (none) --notice--> open
 *   open   --appeal-->  appealed                       (reason 5-2000 chars)
 *   open   --accept-->  accepted  money_outcome lost    (final)
 *   open   --deadline passes without a response--> accepted, lost (final; see README "MED disputes")
 *   open | appealed --ruling upheld-->                rejected  lost                 (final)
 *   open | appealed --ruling merchant_favor|withdrawn--> closed refunded_to_merchant (final; charge back to paid)
 *   open | appealed --ruling closed_without_refund-->  closed  closed_without_refund (final)
 *
 * `money_outcome` is null while `open` or `appealed`. Every status change emits `med_case.updated`;
 * every final state also emits `med.resolved` (the final destination of the held money).
 */

export const MED_CASE_TYPES = ["med", "chargeback", "dispute", "fraud"] as const;
export type MedCaseType = (typeof MED_CASE_TYPES)[number];

export const MED_CASE_STATUSES = ["open", "appealed", "accepted", "rejected", "closed"] as const;
export type MedCaseStatus = (typeof MED_CASE_STATUSES)[number];

/** Statuses from which nothing moves any more. */
export const FINAL_STATUSES: readonly MedCaseStatus[] = ["accepted", "rejected", "closed"];

export const MONEY_OUTCOMES = ["refunded_to_merchant", "closed_without_refund", "lost"] as const;
export type MoneyOutcome = (typeof MONEY_OUTCOMES)[number];

/** Rulings accepted by the sandbox helper and the operator route (extensions.md). */
export const RULINGS = ["upheld", "merchant_favor", "withdrawn", "closed_without_refund"] as const;
export type Ruling = (typeof RULINGS)[number];

/** How a case ended (stored in `med_cases.resolution`): a ruling, the merchant's accept, or the deadline. */
export type Resolution = Ruling | "accepted" | "deadline";

/** `metadata.med.method` vocabulary (interface.md informational metadata). */
export const MED_METHODS = ["scam", "unauthorized", "coercion", "invasion", "other"] as const;
export type MedMethod = (typeof MED_METHODS)[number];

/** Where each ending takes the case and the held money. */
export const ENDINGS: Record<Resolution, { status: MedCaseStatus; outcome: MoneyOutcome }> = {
  upheld: { status: "rejected", outcome: "lost" },
  merchant_favor: { status: "closed", outcome: "refunded_to_merchant" },
  withdrawn: { status: "closed", outcome: "refunded_to_merchant" },
  closed_without_refund: { status: "closed", outcome: "closed_without_refund" },
  accepted: { status: "accepted", outcome: "lost" },
  deadline: { status: "accepted", outcome: "lost" },
};

/** Statuses each ending may start from. Appeal and accept start only from `open`. */
export const ENDING_FROM: Record<Resolution, readonly MedCaseStatus[]> = {
  upheld: ["open", "appealed"],
  merchant_favor: ["open", "appealed"],
  withdrawn: ["open", "appealed"],
  closed_without_refund: ["open", "appealed"],
  accepted: ["open"],
  deadline: ["open"],
};

export const APPEAL_FROM: readonly MedCaseStatus[] = ["open"];

/** Appeal `reason` length in characters (code points, after trimming), interface.md Limits. */
export const APPEAL_REASON_MIN = 5;
export const APPEAL_REASON_MAX = 2000;

/** Evidence file limits (interface.md Limits). */
export const EVIDENCE_MAX_BYTES = 10 * 1024 * 1024;
export const EVIDENCE_MIME_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif", "application/pdf"] as const;
export type EvidenceMimeType = (typeof EVIDENCE_MIME_TYPES)[number];
/** Upload URL lifetime, seconds. */
export const UPLOAD_URL_TTL_S = 900;
/** `view_url` lifetime, seconds. */
export const VIEW_URL_TTL_S = 300;

/** `metadata.med.status` of the charge for a case status and ending (informational). */
export function noticeStatus(
  status: MedCaseStatus,
  resolution: Resolution | null,
): "created" | "delivered" | "closed" | "canceled" {
  if (resolution === "withdrawn") return "canceled";
  if (status === "open") return "created";
  if (status === "appealed") return "delivered";
  return "closed";
}

/** `metadata.med.result` once closed: `agreed` = the merchant lost, `disagreed` = the merchant won. */
export function noticeResult(outcome: MoneyOutcome | null): "agreed" | "disagreed" | undefined {
  if (outcome === null) return undefined;
  return outcome === "refunded_to_merchant" ? "disagreed" : "agreed";
}

export function isFinal(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}
