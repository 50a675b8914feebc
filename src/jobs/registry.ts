/** Registers every job handler with the scheduler: one line per domain group. */
import type { Deps } from "../domain/deps";
import { IDEMPOTENCY_PRUNE_JOB, registerIdempotencyJobs } from "../domain/idempotency/jobs";
import { registerLedgerJobs } from "../domain/ledger/tranches";
import { registerMedJobs } from "../domain/med/jobs";
import { registerPaymentJobs } from "../domain/refunds/jobs";
import { registerPayoutJobs } from "../domain/payouts/jobs";
import { registerChargeJobs } from "../domain/charges/expiry";
import { registerWebhookJobs } from "../domain/webhooks/worker";
import { registerAuditJobs } from "../domain/audit/jobs";
import { registerPixProviderJobs } from "../domain/pix-provider/jobs";
import { registerCardProviderJobs } from "../domain/card-provider/jobs";
import { registerIntentJobs } from "../domain/charges/intent-recovery";
import { registerReconciliationJobs } from "../domain/reconciliation/jobs";
import { registerEventJobs } from "../domain/events/jobs";

/**
 * Called once by createDeps. Each group adds its own `register...Jobs(deps)` here. Handlers are
 * registered at once; the returned promise settles when the startup scheduling some groups do in
 * a unit of work (the charge expiry sweep, the create-intent recovery) has run. It never rejects:
 * those failures are logged by their group.
 */
export function registerJobs(deps: Deps): Promise<void> {
  registerIdempotencyJobs(deps);
  registerLedgerJobs(deps);
  registerMedJobs(deps);
  registerPaymentJobs(deps);
  registerPayoutJobs(deps);
  const sweep = registerChargeJobs(deps);
  registerWebhookJobs(deps);
  registerAuditJobs(deps);
  registerPixProviderJobs(deps);
  registerCardProviderJobs(deps);
  registerReconciliationJobs(deps);
  registerEventJobs(deps);
  const recovery = registerIntentJobs(deps);
  void IDEMPOTENCY_PRUNE_JOB;
  return Promise.all([sweep, recovery]).then(() => undefined);
}
