/**
 * Events of payouts (interface.md "Events", extensions.md "Payouts (money out)"), written in the
 * caller's unit of work: on arrival in a status, its canonical event (`payout.created`,
 * `payout.paid`, `payout.failed` for failed or cancelled; `data.object` = the Payout as the REST API
 * returns it) and its legacy one (`withdrawal.created`, `withdrawal.completed`,
 * `withdrawal.failed`), then `withdrawal.status_changed` on every change (not on creation). Legacy
 * `data`: `{transactionId: the payout id, amount, status, previousStatus, occurredAt}` with the
 * legacy statuses PENDING | PROCESSING | COMPLETED | FAILED | CANCELLED. Which event goes with
 * which status is the status table (model.ts `PAYOUT_RULES`).
 */
import type { Deps } from "../deps";
import { iso } from "../../lib/clock";
import type { Uow } from "../../store/port";
import type { PayoutRow } from "../../store/rows";
import { emitCanonical, emitLegacy, type EventScope } from "../events/emit";
import { PAYOUT_RULES, type PayoutStatus } from "./model";
import { toPayout } from "./views";

/** Events carry the payout id as their transaction id (for lookups); payouts have no per-transaction webhook URL. */
function scopeOf(row: PayoutRow): EventScope {
  return { accountId: row.accountId, livemode: row.livemode, transactionId: row.id, webhookUrl: null };
}

/**
 * Emits the events of `row` having just arrived in its status from `previous` (null = just
 * created). Returns the `evt_` ids written, in order.
 */
export async function emitPayoutEvents(
  deps: Deps,
  uow: Uow,
  row: PayoutRow,
  previous: PayoutStatus | null,
): Promise<string[]> {
  const scope = scopeOf(row);
  const rule = PAYOUT_RULES[row.status as PayoutStatus];
  const data = {
    transactionId: row.id,
    amount: row.amount,
    status: rule.legacyStatus,
    previousStatus: PAYOUT_RULES[previous ?? "pending"].legacyStatus,
    occurredAt: iso(deps.clock.nowMs()),
  };
  const ids: string[] = [];
  if (rule.canonical) ids.push(await emitCanonical(deps, uow, scope, rule.canonical, () => toPayout(row)));
  if (rule.legacy) ids.push(await emitLegacy(deps, uow, scope, rule.legacy, data));
  if (previous !== null) ids.push(await emitLegacy(deps, uow, scope, "withdrawal.status_changed", data));
  return ids;
}
