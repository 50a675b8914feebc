/**
 * Refund statuses and transitions (interface.md "Refund status"): PENDING -> IN_PROGRESS ->
 * REFUNDED or FAILED, advancing as the provider confirms. PENDING may also jump to a final status
 * (a provider can confirm or reject at once).
 */
export const REFUND_STATUSES = ["PENDING", "IN_PROGRESS", "REFUNDED", "FAILED"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

const NEXT: Record<RefundStatus, readonly RefundStatus[]> = {
  PENDING: ["IN_PROGRESS", "REFUNDED", "FAILED"],
  IN_PROGRESS: ["REFUNDED", "FAILED"],
  REFUNDED: [],
  FAILED: [],
};

/** True when a refund may move from `from` to `to`. */
export function canMove(from: RefundStatus, to: RefundStatus): boolean {
  return NEXT[from].includes(to);
}

/** Final refund statuses (no further change). */
export function isFinal(s: RefundStatus): boolean {
  return NEXT[s].length === 0;
}

export const REFUND_STRATEGIES = ["devolution", "cashout"] as const;
export type RefundStrategy = (typeof REFUND_STRATEGIES)[number];

/** Job kind that drives a refund with its provider (submit, then status queries; jobs.ts). */
export const REFUND_ADVANCE_JOB = "refund.advance";
