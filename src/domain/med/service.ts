/**
 * MED case use cases: opening (`applyMedNotice`, the one entry point for sandbox and live
 * notices), appeal, accept, rulings, evidence requests, the response-deadline job and listing.
 * Every write runs in one unit of work (`deps.store.tx`) with its ledger movement, charge update,
 * events and jobs; SQL lives in the adapter (src/store/sqlite/med.ts).
 * Rules: interface.md "MED case status", extensions.md test helpers and operator API.
 */
import type { Deps } from "../deps";
import type { Uow } from "../../store/port";
import type { MedCaseRow } from "../../store/rows";
import type { Scope } from "../scope";
import { DomainError, invalidParam, notFound } from "../errors";
import { iso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { emitMed } from "../events/emit";
import { emitTransition } from "../charges/events";
import { DISPUTABLE, isIn, PUBLIC_STATUS, type TransactionStatus } from "../charges/model";
import { moveTransaction } from "../charges/transition";
import type { TransactionRow } from "../providers/types";
import { holdMed, settleMedHold } from "../ledger";
import {
  APPEAL_FROM,
  APPEAL_REASON_MAX,
  APPEAL_REASON_MIN,
  ENDINGS,
  ENDING_FROM,
  FINAL_STATUSES,
  isFinal,
  noticeResult,
  noticeStatus,
  type MedCaseStatus,
  type MedCaseType,
  type MedMethod,
  type Resolution,
} from "./model";
import { toPublicCase, toResolution } from "./views";

/** Job kind of the response deadline; dedupe key `med.deadline:<case id>`. */
export const MED_DEADLINE_JOB = "med.deadline";
const deadlineKey = (caseId: string) => `${MED_DEADLINE_JOB}:${caseId}`;

/** Transaction status a MED sets (public `disputed`; trigger `dispute` of the state machine, model.ts). */
const DISPUTED: TransactionStatus = "DISPUTE";

/** A MED opening as reported by the payer's bank (sandbox helper or live provider notice). */
export interface MedNotice {
  accountId: string;
  livemode: boolean;
  /** Raw id of the disputed transaction. */
  transactionId: string;
  /** Provider's notice id; a replay of the same id returns the existing case unchanged. */
  externalId?: string | null;
  type?: MedCaseType;
  /** Reported amount, minor units; default the charge amount. */
  amount?: number;
  reason?: string | null;
  method?: MedMethod;
  /** Epoch ms; null/undefined when unknown. */
  responseDeadline?: number | null;
  payerName?: string | null;
  payerDocument?: string | null;
  /** Epoch ms when the bank opened the MED; default now. */
  openedAt?: number;
  /**
   * A claim on part of the charge (a PSP infraction's `valor`, extensions.md "Live MED from the
   * PSP"): an amount below the charge's is then held as it is, without the operations review.
   */
  partial?: boolean;
}

/**
 * Opens a case `open` on a settled charge. Normal case: the amount goes available -> retained
 * (`holdMed`, available may go negative), the transaction becomes DISPUTE (public `disputed`)
 * with `metadata.med`, `med_case.created` is emitted, and a deadline job is queued when the
 * deadline is known. Reported amount != charge amount: the case opens under operations review
 * (`review = "amount_mismatch"`), `metadata.med.amountMismatch = true`, the charge status is NOT
 * changed, and min(reported, charge amount) is held so the money at risk is protected.
 * Throws 404 `not_found` (no such charge in the scope), 400 `invalid_state` (charge not paid,
 * or another case of the charge is still active).
 */
export function applyMedNotice(deps: Deps, notice: MedNotice): Promise<MedCaseRow> {
  return deps.store.tx(async (uow) => {
    const scope = { accountId: notice.accountId, livemode: notice.livemode };
    const found = await uow.charges.byScopedId(scope.accountId, scope.livemode, notice.transactionId);
    if (!found) throw notFound("charge");
    // Decide on the locked charge: a replayed notice, or a second MED of the same charge arriving
    // at another instance at once (PostgreSQL), waits here and then sees the first case.
    const charge = await uow.charges.lockForChange(found.id);
    if (!charge) throw notFound("charge");
    if (notice.externalId) {
      const seen = await uow.med.caseByExternalId(notice.accountId, notice.externalId);
      if (seen) return seen;
    }
    if (!isIn(DISPUTABLE, charge.status))
      throw new DomainError(
        "invalid_state",
        `A MED can only open on a paid charge; this charge is ${PUBLIC_STATUS[charge.status as TransactionStatus]}.`,
      );
    if (await uow.med.activeCaseOfTransaction(charge.id, FINAL_STATUSES))
      throw new DomainError("invalid_state", "This charge already has a MED case that is not final.");
    const now = deps.clock.nowMs();
    const amount = notice.amount ?? charge.amount;
    if (!Number.isSafeInteger(amount) || amount <= 0)
      throw invalidParam("amount", "amount must be a positive integer.", "invalid_amount");
    const mismatch = amount !== charge.amount && !(notice.partial && amount < charge.amount);
    const held = Math.min(amount, charge.amount);
    const id = newId("medCase");
    const openedAt = notice.openedAt ?? now;
    const row = await uow.med.insertCase({
      id,
      accountId: charge.accountId,
      livemode: charge.livemode,
      transactionId: charge.id,
      type: notice.type ?? "med",
      status: "open",
      amount,
      currency: charge.currency,
      heldAmount: held,
      reason: notice.reason ?? null,
      method: notice.method ?? "other",
      referenceId: charge.endToEndId,
      externalId: notice.externalId ?? null,
      payerName: notice.payerName ?? null,
      payerDocument: notice.payerDocument ?? null,
      responseDeadline: notice.responseDeadline ?? null,
      review: mismatch ? "amount_mismatch" : null,
      chargeStatusBefore: charge.status,
      openedAt,
      createdAt: now,
      updatedAt: now,
    });
    await holdMed(deps, uow, {
      accountId: charge.accountId,
      livemode: charge.livemode,
      currency: charge.currency,
      amount: held,
      medCaseId: id,
    });
    if (mismatch) await uow.med.writeChargeMed(charge.id, chargeMedBlock(row, {}, now), now);
    else {
      // Legacy family: a transaction reaching DISPUTE fires `payment.failed`; emitTransition sends
      // no charge.* event for MED statuses (interface.md "Emission rules").
      const moved = await moveTransaction(uow, charge, "dispute", DISPUTED, {
        metadata: withMed(charge, chargeMedBlock(row, {}, now)),
        updatedAt: now,
      });
      if (!moved) throw new Error(`transaction ${charge.id} left ${charge.status} while a MED opened`);
      await emitTransition(deps, uow, moved, charge.status);
    }
    await emitMed(deps, uow, eventScope(row), "med_case.created", toPublicCase(row));
    if (row.responseDeadline !== null && !mismatch)
      await deps.jobs.enqueue(uow, {
        kind: MED_DEADLINE_JOB,
        payload: { caseId: id },
        dueAt: row.responseDeadline,
        dedupeKey: deadlineKey(id),
      });
    return row;
  });
}

/** The case `id` of `scope`; throws 404 `not_found`. */
export async function getCase(deps: Deps, scope: Scope, id: string): Promise<MedCaseRow> {
  const row = await deps.store.read.med.caseInScope(scope, id);
  if (!row) throw notFound("MED case");
  return row;
}

/**
 * Merchant appeal: `open` -> `appealed` with `appeal_reason` and `appealed_at`; emits
 * `med_case.updated`; the deadline job is dropped (the merchant responded). The defense is
 * recorded for operations only. Throws 400 `invalid_request` (reason length), 404, 400 `invalid_state`.
 */
export async function appealCase(deps: Deps, scope: Scope, id: string, reason: unknown): Promise<MedCaseRow> {
  const text = typeof reason === "string" ? reason.trim() : "";
  const len = [...text].length;
  if (typeof reason !== "string" || len < APPEAL_REASON_MIN || len > APPEAL_REASON_MAX)
    throw invalidParam("reason", `reason must be ${APPEAL_REASON_MIN}-${APPEAL_REASON_MAX} characters.`);
  return deps.store.tx(async (uow) => {
    const row = await uow.med.caseInScope(scope, id);
    if (!row) throw notFound("MED case");
    assertFrom(row, APPEAL_FROM, "appealed");
    const now = deps.clock.nowMs();
    const next = await uow.med.updateCase(id, {
      status: "appealed",
      appealReason: text,
      appealedAt: now,
      updatedAt: now,
    });
    await deps.jobs.cancel(uow, deadlineKey(id));
    await touchCharge(uow, next, now);
    await emitMed(deps, uow, eventScope(next), "med_case.updated", toPublicCase(next));
    return next;
  });
}

/** Merchant accepts the MED: `open` -> `accepted`, `money_outcome` `lost`, final. Throws 404, 400 `invalid_state`. */
export function acceptCase(deps: Deps, scope: Scope, id: string): Promise<MedCaseRow> {
  return deps.store.tx(async (uow) => {
    const row = await uow.med.caseInScope(scope, id);
    if (!row) throw notFound("MED case");
    return endCase(deps, uow, row, "accepted");
  });
}

/**
 * A ruling reaches the platform (sandbox helper with `scope`, operator without): see `ENDINGS`.
 * Throws 404, 400 `invalid_state` (already final).
 */
export function resolveCase(deps: Deps, scope: Scope | null, id: string, ruling: Resolution): Promise<MedCaseRow> {
  return deps.store.tx(async (uow) => {
    const row = scope ? await uow.med.caseInScope(scope, id) : await uow.med.caseById(id);
    if (!row) throw notFound("MED case");
    return endCase(deps, uow, row, ruling);
  });
}

/** The platform asks the merchant for evidence: sets `evidence_requested_at`, emits `med_case.updated`. 400 `invalid_state` on a final case. */
export function requestEvidence(deps: Deps, scope: Scope, id: string): Promise<MedCaseRow> {
  return deps.store.tx(async (uow) => {
    const row = await uow.med.caseInScope(scope, id);
    if (!row) throw notFound("MED case");
    if (isFinal(row.status)) throw new DomainError("invalid_state", `The MED case is already ${row.status}.`);
    const now = deps.clock.nowMs();
    const next = await uow.med.updateCase(id, { evidenceRequestedAt: now, updatedAt: now });
    await touchCharge(uow, next, now);
    await emitMed(deps, uow, eventScope(next), "med_case.updated", toPublicCase(next));
    return next;
  });
}

/**
 * Job `med.deadline`: when `response_deadline` passes and the case is still `open` (no appeal,
 * no accept, no ruling) and not under operations review, the missing response counts as an
 * acceptance: `accepted`, `money_outcome` `lost` (emits `med_case.updated` and `med.resolved`).
 */
export async function runDeadline(deps: Deps, caseId: string): Promise<void> {
  await deps.store.tx(async (uow) => {
    const row = await uow.med.caseById(caseId);
    if (row?.status !== "open" || row.review !== null || row.responseDeadline === null) return;
    if (row.responseDeadline > deps.clock.nowMs()) return;
    await endCase(deps, uow, row, "deadline");
  });
}

/** Moves a case to the final state of `how`, settles the hold, updates the charge, emits events. */
async function endCase(deps: Deps, uow: Uow, row: MedCaseRow, how: Resolution): Promise<MedCaseRow> {
  const ending = ENDINGS[how];
  assertFrom(row, ENDING_FROM[how], ending.status);
  const now = deps.clock.nowMs();
  const next = await uow.med.updateCase(row.id, {
    status: ending.status,
    moneyOutcome: ending.outcome,
    resolution: how,
    review: null,
    closedAt: now,
    updatedAt: now,
  });
  if (row.heldAmount > 0) await settleMedHold(deps, uow, { medCaseId: row.id, outcome: ending.outcome });
  await deps.jobs.cancel(uow, deadlineKey(row.id));
  // Decided on the locked charge: the status it goes back to is written only from the one read here.
  const charge = await uow.charges.lockForChange(row.transactionId);
  if (charge && ending.outcome === "refunded_to_merchant" && charge.status === DISPUTED) {
    const med = chargeMedBlock(next, await uow.med.chargeMed(charge.id), now);
    const back = next.chargeStatusBefore as TransactionStatus;
    const moved = await moveTransaction(uow, charge, "dispute_won", back, {
      metadata: withMed(charge, med),
      updatedAt: now,
    });
    if (!moved) throw new Error(`transaction ${charge.id} left ${charge.status} while its MED case ended`);
    await emitTransition(deps, uow, moved, charge.status);
  } else if (charge && ending.outcome === "lost" && row.type === "dispute" && charge.status === DISPUTED) {
    // A card dispute lost is a chargeback (extensions.md "Live cards and boletos through Stripe").
    const med = chargeMedBlock(next, await uow.med.chargeMed(charge.id), now);
    const moved = await moveTransaction(uow, charge, "chargeback", "CHARGEBACK", {
      metadata: withMed(charge, med),
      updatedAt: now,
    });
    if (!moved) throw new Error(`transaction ${charge.id} left ${charge.status} while its dispute was lost`);
    await emitTransition(deps, uow, moved, charge.status);
  } else await touchCharge(uow, next, now);
  await emitMed(deps, uow, eventScope(next), "med_case.updated", toPublicCase(next));
  await emitMed(deps, uow, eventScope(next), "med.resolved", toResolution(next));
  return next;
}

function assertFrom(row: MedCaseRow, from: readonly MedCaseStatus[], to: MedCaseStatus): void {
  if (!(from as readonly string[]).includes(row.status))
    throw new DomainError("invalid_state", `A ${row.status} MED case cannot become ${to}.`);
}

/** Rewrites the charge's informational `metadata.med` (never its status). */
async function touchCharge(uow: Uow, row: MedCaseRow, now: number): Promise<void> {
  await uow.med.writeChargeMed(
    row.transactionId,
    chargeMedBlock(row, await uow.med.chargeMed(row.transactionId), now),
    now,
  );
}

/** The `metadata` text of `charge` with its `med` block set to `med` (the other keys as stored; see writeChargeMed). */
function withMed(charge: TransactionRow, med: Record<string, unknown>): string {
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(charge.metadata ?? "{}");
  } catch {}
  metadata.med = med;
  return JSON.stringify(metadata);
}

/** `metadata.med` of the charge (interface.md informational blocks; shape may change). */
function chargeMedBlock(row: MedCaseRow, previous: Record<string, unknown>, now: number): Record<string, unknown> {
  const block: Record<string, unknown> = {
    referenceId: row.referenceId,
    status: noticeStatus(row.status as MedCaseStatus, row.resolution as Resolution | null),
    method: row.method,
    reason: row.reason,
    openedAt: iso(row.openedAt),
    updatedAt: iso(now),
    lastEventAt: iso(now),
  };
  const result = noticeResult(row.moneyOutcome as never);
  if (result) block.result = result;
  if (row.payerName) block.payerName = row.payerName;
  if (row.payerDocument) block.payerDocument = row.payerDocument;
  if (row.closedAt !== null) block.closedAt = iso(row.closedAt);
  if (previous.amountMismatch === true || row.review === "amount_mismatch") block.amountMismatch = true;
  return block;
}

function eventScope(row: MedCaseRow) {
  return { accountId: row.accountId, livemode: row.livemode, transactionId: row.transactionId };
}
