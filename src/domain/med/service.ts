/**
 * MED case use cases: opening (`applyMedNotice`, the one entry point for sandbox and live
 * notices), appeal, accept, rulings, evidence requests, the response-deadline job and listing.
 * Every write runs in one `tx` with its ledger movement, charge update, events and jobs.
 * Rules: interface.md "MED case status", extensions.md test helpers and operator API.
 */
import type { Deps } from "../../deps";
import { tx, type Tx } from "../../db/client";
import { DomainError, invalidParam, notFound } from "../errors";
import { iso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { emitMed } from "../events/emit";
import { emitTransitionSync as emitTransition } from "../charges/events";
import { PUBLIC_STATUS, type TransactionStatus } from "../charges/model";
import { findById, findScoped } from "../charges/repo";
import { holdMed, settleMedHold } from "../ledger";
import {
  APPEAL_FROM,
  APPEAL_REASON_MAX,
  APPEAL_REASON_MIN,
  ENDINGS,
  ENDING_FROM,
  isFinal,
  noticeResult,
  noticeStatus,
  type MedCaseStatus,
  type MedCaseType,
  type MedMethod,
  type Resolution,
} from "./model";
import * as repo from "./repo";
import type { MedCaseRow, Scope } from "./repo";
import { toPublicCase, toResolution } from "./views";

/** Job kind of the response deadline; dedupe key `med.deadline:<case id>`. */
export const MED_DEADLINE_JOB = "med.deadline";
const deadlineKey = (caseId: string) => `${MED_DEADLINE_JOB}:${caseId}`;

/** Transaction statuses on which a MED can open (a settled charge). */
const DISPUTABLE = ["PAID", "APPROVED"];
/** Transaction status a MED sets (public `disputed`). */
const DISPUTED = "DISPUTE";

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
export function applyMedNotice(deps: Deps, notice: MedNotice): MedCaseRow {
  return tx(deps.db, (t) => {
    if (notice.externalId) {
      const seen = repo.findCaseByExternalId(t, notice.accountId, notice.externalId);
      if (seen) return seen;
    }
    const scope = { accountId: notice.accountId, livemode: notice.livemode };
    const charge = findScoped(deps.db, scope.accountId, scope.livemode, notice.transactionId);
    if (!charge) throw notFound("charge");
    if (!DISPUTABLE.includes(charge.status))
      throw new DomainError("invalid_state", `A MED can only open on a paid charge; this charge is ${PUBLIC_STATUS[charge.status as TransactionStatus]}.`);
    if (repo.findActiveCaseForTransaction(t, charge.id))
      throw new DomainError("invalid_state", "This charge already has a MED case that is not final.");
    const now = deps.clock.nowMs();
    const amount = notice.amount ?? charge.amount;
    if (!Number.isSafeInteger(amount) || amount <= 0) throw invalidParam("amount", "amount must be a positive integer.", "invalid_amount");
    const mismatch = amount !== charge.amount;
    const held = Math.min(amount, charge.amount);
    const id = newId("medCase");
    const openedAt = notice.openedAt ?? now;
    repo.insertCase(t, {
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
    holdMed(deps, t, { accountId: charge.accountId, livemode: charge.livemode, currency: charge.currency, amount: held, medCaseId: id });
    const row = repo.findCaseAnyAccount(t, id)!;
    repo.writeChargeMed(t, charge.id, chargeMedBlock(row, {}, now), now, mismatch ? undefined : DISPUTED);
    // Legacy family: a transaction reaching DISPUTE fires `payment.failed`; emitTransition sends
    // no charge.* event for MED statuses (interface.md "Emission rules").
    if (!mismatch) emitTransition(deps, t, findById(t, charge.id)!, charge.status);
    emitMed(deps, t, eventScope(row), "med_case.created", toPublicCase(row));
    if (row.responseDeadline !== null && !mismatch)
      deps.jobs.enqueue(t, { kind: MED_DEADLINE_JOB, payload: { caseId: id }, dueAt: row.responseDeadline, dedupeKey: deadlineKey(id) });
    return row;
  });
}

/** The case `id` of `scope`; throws 404 `not_found`. */
export function getCase(deps: Deps, scope: Scope, id: string): MedCaseRow {
  const row = repo.findCase(deps.db, scope, id);
  if (!row) throw notFound("MED case");
  return row;
}

/**
 * Merchant appeal: `open` -> `appealed` with `appeal_reason` and `appealed_at`; emits
 * `med_case.updated`; the deadline job is dropped (the merchant responded). The defense is
 * recorded for operations only. Throws 400 `invalid_request` (reason length), 404, 400 `invalid_state`.
 */
export function appealCase(deps: Deps, scope: Scope, id: string, reason: unknown): MedCaseRow {
  const text = typeof reason === "string" ? reason.trim() : "";
  const len = [...text].length;
  if (typeof reason !== "string" || len < APPEAL_REASON_MIN || len > APPEAL_REASON_MAX)
    throw invalidParam("reason", `reason must be ${APPEAL_REASON_MIN}-${APPEAL_REASON_MAX} characters.`);
  return tx(deps.db, (t) => {
    const row = repo.findCase(t, scope, id);
    if (!row) throw notFound("MED case");
    assertFrom(row, APPEAL_FROM, "appealed");
    const now = deps.clock.nowMs();
    const next = repo.updateCase(t, id, { status: "appealed", appealReason: text, appealedAt: now, updatedAt: now });
    deps.jobs.cancel(t, deadlineKey(id));
    touchCharge(t, next, now);
    emitMed(deps, t, eventScope(next), "med_case.updated", toPublicCase(next));
    return next;
  });
}

/** Merchant accepts the MED: `open` -> `accepted`, `money_outcome` `lost`, final. Throws 404, 400 `invalid_state`. */
export function acceptCase(deps: Deps, scope: Scope, id: string): MedCaseRow {
  return tx(deps.db, (t) => {
    const row = repo.findCase(t, scope, id);
    if (!row) throw notFound("MED case");
    return endCase(deps, t, row, "accepted");
  });
}

/**
 * A ruling reaches the platform (sandbox helper with `scope`, operator without): see `ENDINGS`.
 * Throws 404, 400 `invalid_state` (already final).
 */
export function resolveCase(deps: Deps, scope: Scope | null, id: string, ruling: Resolution): MedCaseRow {
  return tx(deps.db, (t) => {
    const row = scope ? repo.findCase(t, scope, id) : repo.findCaseAnyAccount(t, id);
    if (!row) throw notFound("MED case");
    return endCase(deps, t, row, ruling);
  });
}

/** The platform asks the merchant for evidence: sets `evidence_requested_at`, emits `med_case.updated`. 400 `invalid_state` on a final case. */
export function requestEvidence(deps: Deps, scope: Scope, id: string): MedCaseRow {
  return tx(deps.db, (t) => {
    const row = repo.findCase(t, scope, id);
    if (!row) throw notFound("MED case");
    if (isFinal(row.status)) throw new DomainError("invalid_state", `The MED case is already ${row.status}.`);
    const now = deps.clock.nowMs();
    const next = repo.updateCase(t, id, { evidenceRequestedAt: now, updatedAt: now });
    touchCharge(t, next, now);
    emitMed(deps, t, eventScope(next), "med_case.updated", toPublicCase(next));
    return next;
  });
}

/**
 * Job `med.deadline`: when `response_deadline` passes and the case is still `open` (no appeal,
 * no accept, no ruling) and not under operations review, the missing response counts as an
 * acceptance: `accepted`, `money_outcome` `lost` (emits `med_case.updated` and `med.resolved`).
 */
export function runDeadline(deps: Deps, caseId: string): void {
  tx(deps.db, (t) => {
    const row = repo.findCaseAnyAccount(t, caseId);
    if (!row || row.status !== "open" || row.review !== null || row.responseDeadline === null) return;
    if (row.responseDeadline > deps.clock.nowMs()) return;
    endCase(deps, t, row, "deadline");
  });
}

/** Moves a case to the final state of `how`, settles the hold, updates the charge, emits events. */
function endCase(deps: Deps, t: Tx, row: MedCaseRow, how: Resolution): MedCaseRow {
  const ending = ENDINGS[how];
  assertFrom(row, ENDING_FROM[how], ending.status);
  const now = deps.clock.nowMs();
  const next = repo.updateCase(t, row.id, {
    status: ending.status,
    moneyOutcome: ending.outcome,
    resolution: how,
    review: null,
    closedAt: now,
    updatedAt: now,
  });
  if (row.heldAmount > 0) settleMedHold(deps, t, { medCaseId: row.id, outcome: ending.outcome });
  deps.jobs.cancel(t, deadlineKey(row.id));
  const charge = findById(t, row.transactionId);
  const restore = ending.outcome === "refunded_to_merchant" && charge?.status === DISPUTED ? next.chargeStatusBefore : undefined;
  touchCharge(t, next, now, restore);
  if (restore) emitTransition(deps, t, findById(t, row.transactionId)!, DISPUTED);
  emitMed(deps, t, eventScope(next), "med_case.updated", toPublicCase(next));
  emitMed(deps, t, eventScope(next), "med.resolved", toResolution(next));
  return next;
}

function assertFrom(row: MedCaseRow, from: readonly MedCaseStatus[], to: MedCaseStatus): void {
  if (!(from as readonly string[]).includes(row.status))
    throw new DomainError("invalid_state", `A ${row.status} MED case cannot become ${to}.`);
}

/** Rewrites the charge's informational `metadata.med` (and its status when `status` is given). */
function touchCharge(t: Tx, row: MedCaseRow, now: number, status?: string): void {
  repo.writeChargeMed(t, row.transactionId, chargeMedBlock(row, repo.readChargeMed(t, row.transactionId), now), now, status);
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
