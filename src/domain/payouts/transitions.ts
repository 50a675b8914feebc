/**
 * The one function that moves a payout (the job, a provider hint through the job, the cancel
 * route, the test helpers): a conditional write on the status read, then what the status table
 * (model.ts `PAYOUT_RULES`) says arrival there does: its timestamp, the ledger (paid: out of
 * `payout_in_transit`; failed or cancelled: `amount + fee` back to `available`), its events, and
 * the end of the payout's job once final. All in the caller's unit of work.
 */
import type { Deps } from "../deps";
import type { Uow } from "../../store/port";
import type { PayoutRow } from "../../store/rows";
import { DomainError } from "../errors";
import { reversePayout, settlePayout } from "../ledger";
import { emitPayoutEvents } from "./events";
import { advanceKey, canMove, isFinal, PAYOUT_RULES, type PayoutStatus } from "./model";

/** What a move may record besides the status (the PSP's end-to-end id, a failure, the send bookkeeping). */
export type PayoutPatch = Partial<
  Pick<PayoutRow, "endToEndId" | "failureCode" | "failureMessage" | "sendAttempts" | "sentAt">
>;

/**
 * Inside `uow`: moves `row` from the status it was read in to `to`. Returns the payout as stored
 * after the move, or undefined when it moved meanwhile (nothing written: the status it reached
 * wins). Throws 400 `invalid_state` when the status table forbids the move.
 */
export async function movePayout(
  deps: Deps,
  uow: Uow,
  row: PayoutRow,
  to: PayoutStatus,
  patch: PayoutPatch = {},
): Promise<PayoutRow | undefined> {
  const from = row.status as PayoutStatus;
  if (!canMove(from, to)) throw new DomainError("invalid_state", `A ${from} payout cannot become ${to}.`);
  const now = deps.clock.nowMs();
  const rule = PAYOUT_RULES[to];
  const moved = await uow.payouts.moveFrom(row.id, from, {
    ...patch,
    status: to,
    updatedAt: now,
    ...(rule.stamp ? { [rule.stamp]: now } : {}),
  });
  if (!moved) return undefined;
  if (rule.restores) await reversePayout(deps, uow, moved.id);
  if (to === "paid") await settlePayout(deps, uow, moved.id);
  await emitPayoutEvents(deps, uow, moved, from);
  if (isFinal(to)) await deps.jobs.cancel(uow, advanceKey(moved.id));
  return moved;
}

/** `movePayout`, but a payout that moved meanwhile is 400 `invalid_state` too (routes and helpers). */
export async function movePayoutOrThrow(
  deps: Deps,
  uow: Uow,
  row: PayoutRow,
  to: PayoutStatus,
  patch: PayoutPatch = {},
): Promise<PayoutRow> {
  const moved = await movePayout(deps, uow, row, to, patch);
  if (!moved)
    throw new DomainError("invalid_state", `The payout moved from ${row.status} meanwhile; it cannot become ${to}.`);
  return moved;
}
