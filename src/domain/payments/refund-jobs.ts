/**
 * Durable progress of sandbox refunds: job `refund.advance` moves a refund one step every
 * SANDBOX_REFUND_STEP_SECONDS (PENDING -> IN_PROGRESS -> REFUNDED) through `applyRefundStatus`.
 */
import { tx } from "../../db/client";
import type { Deps } from "../../deps";
import { isFinal, REFUND_ADVANCE_JOB, SANDBOX_REFUND_STEP_SECONDS, type RefundStatus } from "./refund-model";
import { findRefund } from "./refund-repo";
import { applyRefundStatus } from "./refunds";
import { registerCardJobs } from "./card";

/** Registers the payments group's jobs: refund progress and card 3DS (called from src/jobs/registry.ts). */
export function registerPaymentJobs(deps: Deps): void {
  registerCardJobs(deps);
  deps.jobs.register(REFUND_ADVANCE_JOB, (job) => {
    const { refundId } = job.payload as { refundId: string };
    return tx(deps.db, (t) => {
      const r = findRefund(t, refundId);
      if (!r || isFinal(r.status as RefundStatus)) return;
      if (r.status === "PENDING") {
        applyRefundStatus(deps, t, refundId, "IN_PROGRESS");
        return { retryAt: deps.clock.nowMs() + SANDBOX_REFUND_STEP_SECONDS * 1000 };
      }
      applyRefundStatus(deps, t, refundId, "REFUNDED");
    });
  });
}
