/**
 * Sandbox refunds (Pix and card): accepted at once, submitted SANDBOX_REFUND_STEP_SECONDS later,
 * in progress on submission and refunded one step after that (PENDING -> IN_PROGRESS ->
 * REFUNDED, 2 s apart; extensions.md: "sandbox refunds advance by themselves within seconds").
 * The test helper `refunds/{id}/advance` moves them by hand instead.
 */
import { newDevolutionId } from "../../pix/ids";
import type {
  ProviderContext,
  RefundOutcome,
  RefundPlan,
  RefundPlanRequest,
  RefundRequest,
} from "../../domain/providers/types";

/** Seconds between automatic refund steps. */
export const SANDBOX_REFUND_STEP_SECONDS = 2;

/** Refund plan: Pix (default strategy cashout; a devolution gets its `D...` id now) and card only. */
export function planSandboxRefund(ctx: ProviderContext, req: RefundPlanRequest, refundable: boolean): RefundPlan {
  if (!refundable)
    return {
      status: "not_supported",
      code: "refund_not_supported",
      message: `Refunds are not supported for ${req.method} payments.`,
    };
  const now = ctx.clock.nowMs();
  const strategy = req.method === "PIX" ? (req.strategy ?? "cashout") : null;
  return {
    status: "pending",
    checkAt: now + SANDBOX_REFUND_STEP_SECONDS * 1000,
    strategy,
    providerRefundId: strategy === "devolution" ? newDevolutionId(new Date(now)) : null,
  };
}

/** Submission: in progress, refunded one step later. */
export function submitSandboxRefund(ctx: ProviderContext, _req: RefundRequest): RefundOutcome {
  return { status: "pending", inProgress: true, checkAt: ctx.clock.nowMs() + SANDBOX_REFUND_STEP_SECONDS * 1000 };
}

/** Status query: one step further than the refund's status. */
export function sandboxRefundStatus(ctx: ProviderContext, req: RefundRequest): RefundOutcome {
  if (req.refund.status === "IN_PROGRESS") return { status: "settled" };
  return submitSandboxRefund(ctx, req);
}
