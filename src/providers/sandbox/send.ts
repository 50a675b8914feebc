/**
 * Sandbox Pix sends (payouts; extensions.md "Payouts (money out)": "a test payout goes
 * `processing` when sent and `paid` 10 s later by itself (the test clock advances it), with a
 * 32-character `end_to_end_id`"). Stateless: a send is accepted at once; its status is a function
 * of when the domain first recorded it (`requestedAt`) and the injected clock.
 */
import { newEndToEndId } from "../../pix/ids";
import type { ProviderContext, SendOutcome, SendRequest } from "../../domain/providers/types";

/** Seconds from the recorded send to `paid`. */
export const SANDBOX_SEND_SETTLE_SECONDS = 10;

/** When a send recorded at `requestedAt` (epoch ms) is paid, epoch ms. */
function settlesAt(req: SendRequest): number {
  return req.requestedAt + SANDBOX_SEND_SETTLE_SECONDS * 1000;
}

/** The send's end-to-end id: `E` + sandbox ISPB + the recorded time (UTC) + 11 random alphanumerics (32 characters). */
function endToEndOf(req: SendRequest): string {
  return newEndToEndId(new Date(req.requestedAt));
}

/** Send: accepted, `processing` until SANDBOX_SEND_SETTLE_SECONDS after `requestedAt` (a resumed send is the same). */
export function sandboxSend(ctx: ProviderContext, req: SendRequest): SendOutcome {
  return sandboxSendStatus(ctx, req);
}

/** Status: `paid` once the clock reached `requestedAt` + 10 s, else `processing` with `checkAt` then. */
export function sandboxSendStatus(ctx: ProviderContext, req: SendRequest): SendOutcome {
  const at = settlesAt(req);
  if (ctx.clock.nowMs() >= at) return { status: "paid", endToEndId: endToEndOf(req), paidAt: at };
  return { status: "processing", endToEndId: endToEndOf(req), checkAt: at };
}
