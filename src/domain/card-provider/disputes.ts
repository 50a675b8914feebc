/**
 * Card disputes (extensions.md "Live cards and boletos through Stripe"): a dispute hint (an event
 * `charge.dispute.*`) queues `DISPUTE_CHECK_JOB`, which retrieves the dispute from the provider and
 * applies it to the MED machinery (src/domain/med/service.ts), the one place holds and outcomes
 * live: `open` -> a MED case of type `dispute` holding the disputed amount, the transaction
 * DISPUTE (once per dispute id: the case's `external_id`); `won` -> case `closed`
 * `refunded_to_merchant`, the transaction back to APPROVED; `lost` -> case `rejected` with
 * `money_outcome` `lost`, the transaction CHARGEBACK. A later outcome finds the case open first
 * (a missed `created` event opens it then). Stripe decides the outcome: no response deadline job.
 */
import type { Deps } from "../deps";
import type { JobOutcome } from "../jobs";
import { DomainError } from "../errors";
import { applyMedNotice, resolveCase } from "../med/service";

/** A dispute check that failed (Stripe unreachable) runs again this much later, ms. */
const RETRY_MS = 60_000;

/** Retrieves dispute `disputeId` through connection `connectionId` and applies it (see the module header). */
export async function runDisputeCheck(deps: Deps, connectionId: string, disputeId: string): Promise<JobOutcome> {
  const conn = await deps.store.read.cardProvider.byId(connectionId);
  const provider = conn && deps.providers.forConnection(conn.id);
  if (!conn || !provider?.disputeStatus) return;
  const o = await provider.disputeStatus(deps.providers.ctx, { disputeId });
  if (o.status === "retryable" || o.status === "auth_failed")
    return { retryAt: o.retryAt ?? deps.clock.nowMs() + RETRY_MS };
  if (o.status !== "open" && o.status !== "won" && o.status !== "lost") {
    deps.logger.warn(
      { connection_id: conn.id, dispute_id: disputeId, code: "code" in o ? o.code : null },
      "card provider: a dispute hint names nothing Stripe knows",
    );
    return;
  }
  if (!o.transactionId) {
    deps.logger.warn(
      { connection_id: conn.id, dispute_id: disputeId },
      "card provider: a dispute names no Cofre payment",
    );
    return;
  }
  const scope = { accountId: conn.accountId, livemode: true };
  let medCase;
  try {
    medCase = await applyMedNotice(deps, {
      ...scope,
      transactionId: o.transactionId,
      externalId: o.disputeId,
      type: "dispute",
      amount: o.amount,
      reason: o.reason,
      partial: true,
    });
  } catch (err) {
    // Not a payment of this account, or not disputable (e.g. already refunded): nothing to hold.
    if (err instanceof DomainError) {
      deps.logger.warn(
        { connection_id: conn.id, dispute_id: disputeId, transaction_id: o.transactionId, reason: err.message },
        "card provider: the dispute could not open a case",
      );
      return;
    }
    throw err;
  }
  if (o.status === "open" || medCase.status !== "open") return;
  await resolveCase(deps, null, medCase.id, o.status === "won" ? "merchant_favor" : "upheld");
}
