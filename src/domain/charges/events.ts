/**
 * Events of a transaction status change (interface.md "Emission rules"), written with the caller's
 * business transaction. Canonical `charge.*` carry the public Charge; legacy `payment.*` carry
 * `{transactionId, amount, status, previousStatus, paidWith?, platformFee?, occurredAt}`.
 * Which events a change sends is the events column of the transaction state machine
 * (`TRANSACTION_TRANSITIONS`, model.ts, read through `eventsOf`); by destination status:
 *
 * | to                    | canonical       | legacy                                   |
 * | created (prev null)   | charge.created  | payment.created                          |
 * | PAID / APPROVED       | charge.paid     | payment.completed                        |
 * | REFUSED / CANCELLED   | charge.failed   | payment.failed                           |
 * | EXPIRED               | charge.expired  | payment.failed + payment.expired         |
 * | CHARGEBACK / DISPUTE  | (none: MED)     | payment.failed                           |
 * | anything else         | (none)          | payment.status_changed                   |
 * A return from a MED status (DISPUTE/CHARGEBACK -> PAID) emits no charge.* event.
 * A refund reaching REFUNDED adds `charge.refunded` (emitRefunded).
 *
 * The canonical family is sent only for transactions that have a charge view (`GET
 * /v1/charges/{id}` answers 200: they offer PIX); the others (card-only, boleto, ...) send the
 * legacy family alone (extensions.md "Provider events for refunds").
 */
import type { Deps } from "../deps";
import { iso } from "../../lib/clock";
import type { TransactionRow } from "../providers/types";
import { emitCanonical, emitLegacy, type LegacyData, type LegacyType } from "../events/emit";
import type { Uow } from "../../store/port";
import { hasChargeView, toPublicCharge } from "./views";
import { eventsOf, isIn, SETTLED, type TransitionEventType } from "./model";

/** Legacy `data` of `row` after a change from `previousStatus`. */
export function legacyData(row: TransactionRow, previousStatus: string, occurredAt: number): LegacyData {
  const data: LegacyData = {
    transactionId: row.id,
    amount: row.amount,
    status: row.status,
    previousStatus,
    occurredAt: iso(occurredAt),
  };
  if (isIn(SETTLED, row.status)) {
    data.paidWith = row.paidWith;
    data.platformFee = row.platformFee;
  }
  return data;
}

/** Canonical `charge.*` types a status change emits. */
type ChargeTransitionType = "charge.created" | "charge.paid" | "charge.failed" | "charge.expired";

/** One event of a transition: its family and type. */
export type TransitionEvent =
  | { family: "canonical"; type: ChargeTransitionType }
  | { family: "legacy"; type: LegacyType };

/**
 * The events, in order, of `row` having just moved from `previousStatus` (null = just created):
 * the events column of the state machine (model.ts `eventsOf`). Canonical ones only when the row
 * has a charge view.
 */
export function transitionEvents(row: TransactionRow, previousStatus: string | null): TransitionEvent[] {
  const charge = hasChargeView(row);
  const out: TransitionEvent[] = [];
  for (const type of eventsOf(previousStatus, row.status) as readonly TransitionEventType[]) {
    if (type.startsWith("charge.")) {
      if (charge) out.push({ family: "canonical", type: type as ChargeTransitionType });
    } else out.push({ family: "legacy", type: type as LegacyType });
  }
  return out;
}

/** The outbox scope of `row`'s events. */
function scopeOf(row: TransactionRow) {
  return {
    accountId: row.accountId,
    livemode: row.livemode,
    transactionId: row.id,
    webhookUrl: row.webhookUrl ?? null,
  };
}

/**
 * Emits the events of `row` having just moved from `previousStatus` (null = just created), inside
 * the caller's unit of work `uow` (transitionEvents). Returns the `evt_` ids written. `view`, when
 * given, returns `toPublicCharge(row)` already built for the answer (creation: one build, not two).
 */
export async function emitTransition(
  deps: Deps,
  uow: Uow,
  row: TransactionRow,
  previousStatus: string | null,
  view?: () => unknown,
): Promise<string[]> {
  const scope = scopeOf(row);
  const now = deps.clock.nowMs();
  const ids: string[] = [];
  for (const e of transitionEvents(row, previousStatus))
    ids.push(
      e.family === "canonical"
        ? await emitCanonical(deps, uow, scope, e.type, view ?? (() => toPublicCharge(row, deps.config)))
        : await emitLegacy(deps, uow, scope, e.type, legacyData(row, previousStatus ?? "PENDING", now)),
    );
  return ids;
}

/**
 * `charge.refunded` for a refund of `row` that just reached REFUNDED (partial or full), written
 * with the refund's status change in `uow`: `data.object` is the public Charge as it stands (after
 * the transaction's own status change, if any), `data.refund` the public Refund. Nothing for a
 * transaction without a charge view. Returns the `evt_` id, or null when not emitted.
 * Source: extensions.md "Provider events for refunds".
 */
export async function emitRefunded(deps: Deps, uow: Uow, row: TransactionRow, refund: unknown): Promise<string | null> {
  if (!hasChargeView(row)) return null;
  return await emitCanonical(deps, uow, scopeOf(row), "charge.refunded", () => toPublicCharge(row, deps.config), {
    refund,
  });
}
