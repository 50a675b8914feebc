/**
 * The one write of a transaction's status (issue 25 §1): every status change asks the transaction
 * state machine (`TRANSACTION_TRANSITIONS`, src/domain/charges/model.ts) and writes conditionally
 * on the status it read, so two units racing on one transaction (PostgreSQL connections) never
 * overwrite each other: the second finds the status moved and writes nothing. Callers read the
 * row with `uow.charges.lockForChange` first (on PostgreSQL the second unit then waits for the
 * first to commit and decides on what it wrote) and send the events with `emitTransition`.
 */
import type { TransactionRow } from "../providers/types";
import type { Uow } from "../../store/port";
import { canTransition, type TransactionStatus, type TransactionTrigger } from "./model";

/**
 * Throws an Error (a bug in the caller: it checked the wrong group) unless the table lets
 * `trigger` move a transaction from `from` (null: not created yet) to `to`; `id` names it in the message.
 */
export function assertTransition(
  from: string | null,
  trigger: TransactionTrigger,
  to: TransactionStatus,
  id: string,
): void {
  if (!canTransition(from, trigger, to))
    throw new Error(
      `the transaction state machine has no "${trigger}" from ${from ?? "(none)"} to ${to} (transaction ${id})`,
    );
}

/**
 * Inside `uow`: moves `row` (as read, under `lockForChange`) by `trigger` to `to` with `patch`
 * (the other columns of the change, e.g. `updatedAt` epoch ms, `metadata`), only while its stored
 * status is still `row.status`. Returns the updated row, or undefined when the status moved
 * meanwhile (nothing written). Throws an Error when the table does not allow the move.
 */
export async function moveTransaction(
  uow: Uow,
  row: TransactionRow,
  trigger: TransactionTrigger,
  to: TransactionStatus,
  patch: Partial<TransactionRow> = {},
): Promise<TransactionRow | undefined> {
  assertTransition(row.status, trigger, to, row.id);
  return uow.charges.transition(row.id, row.status, { ...patch, status: to });
}
