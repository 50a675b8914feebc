/**
 * Ledger operations the other groups call (charges, refunds, MED). Each writes one balanced
 * journal entry in the caller's unit of work `uow` (`deps.store.tx`); repeating the same cause is a
 * no-op. Each entry point checks its `uow` synchronously (src/domain/ledger/unit.ts) and resolves
 * when the posting is written; a rejection rolls the caller's unit back.
 * Amounts are integers in minor units (centavos); times epoch ms from `deps.clock`.
 */
import type { Deps } from "../deps";
import type { Uow } from "../../store/port";
import { DomainError } from "../errors";
import { getAccountSettings } from "../accounts/settings";
import { newId } from "../../lib/ids";
import { LedgerInvariantError, postEntry, type LedgerAccount, type LineInput } from "./post";
import { adjustTrancheRemaining, releaseTranche, scheduleRelease } from "./tranches";
import type { LedgerUnit } from "./unit";
import type { CreditChargePaymentInput, DebitRefundInput, HoldMedInput, SettleMedHoldInput } from "./index";

export { LEDGER_RELEASE_JOB, registerLedgerJobs } from "./tranches";

function assertAmount(name: string, v: number, min = 1): void {
  if (!Number.isSafeInteger(v) || v < min)
    throw new LedgerInvariantError(`${name} must be an integer >= ${min} (got ${v})`);
}

/**
 * Credits a paid charge: `amount` (gross) leaves the external payer, `amount - fee` goes to the
 * merchant's `pending` as one tranche, `fee` to platform fee revenue. The tranche is released to
 * `available` at now + `settlement_delay_seconds` by the job `ledger.release_tranche` (at once,
 * in the same transaction, when the delay is 0). Key `charge_payment:<transactionId>`; a repeat
 * returns the first call's `releaseAt` and posts nothing. Rejects with LedgerInvariantError on a bad
 * amount or fee, or an unknown account.
 */
export function creditChargePayment(
  deps: Deps,
  uow: LedgerUnit,
  p: CreditChargePaymentInput,
): Promise<{ releaseAt: number }> {
  return credit(deps, uow, p);
}

async function credit(deps: Deps, uow: Uow, p: CreditChargePaymentInput): Promise<{ releaseAt: number }> {
  assertAmount("amount", p.amount);
  assertAmount("fee", p.fee, 0);
  if (p.fee > p.amount) throw new LedgerInvariantError(`fee ${p.fee} exceeds amount ${p.amount}`);
  const key = `charge_payment:${p.transactionId}`;
  const existing = await uow.ledger.entryByKey(key);
  if (existing) {
    const tr = await uow.ledger.trancheOfTransaction(p.accountId, p.livemode, p.transactionId);
    return { releaseAt: tr?.releaseAt ?? existing.createdAt };
  }
  const settings = await getAccountSettings(uow, p.accountId);
  if (!settings) throw new LedgerInvariantError(`unknown account ${p.accountId}`);
  const now = deps.clock.nowMs();
  const releaseAt = now + settings.settlement_delay_seconds * 1000;
  const net = p.amount - p.fee;
  const trancheId = newId("tranche");
  if (net > 0) {
    await uow.ledger.insertTranche({
      id: trancheId,
      accountId: p.accountId,
      livemode: p.livemode,
      currency: p.currency,
      transactionId: p.transactionId,
      amount: net,
      remaining: net,
      releaseAt,
      createdAt: now,
    });
  }
  await postEntry(uow, {
    accountId: p.accountId,
    livemode: p.livemode,
    currency: p.currency,
    kind: "charge_payment",
    causeKind: "charge",
    causeId: p.transactionId,
    idempotencyKey: key,
    meta: { amount: p.amount, fee: p.fee },
    lines: [
      { ledgerAccount: "external_payer", amount: -p.amount },
      { ledgerAccount: "pending", amount: net, trancheId },
      { ledgerAccount: "platform_fee_revenue", amount: p.fee },
    ],
    now,
  });
  if (net > 0) {
    if (releaseAt <= now) await releaseTranche(deps, uow, trancheId);
    else await scheduleRelease(deps, uow, { id: trancheId, releaseAt });
  }
  return { releaseAt };
}

/**
 * Debits a refund of `amount` from the merchant, paid out to the external payer. The optional
 * `pixOutFee` is taken first from the positive part of `available` (to platform revenue); the
 * refund then draws from what is left of `available` and, when short, from the unreleased pending
 * tranche of `transactionId`. Never drives `available` below zero. Rejects with
 * `DomainError("insufficient_balance")` (400) when the funds do not cover it. Key `refund:<refundId>`;
 * a repeat is a no-op.
 */
export function debitRefund(deps: Deps, uow: LedgerUnit, p: DebitRefundInput): Promise<void> {
  return debit(deps, uow, p);
}

async function debit(deps: Deps, uow: Uow, p: DebitRefundInput): Promise<void> {
  assertAmount("amount", p.amount);
  const fee = p.pixOutFee ?? 0;
  assertAmount("pixOutFee", fee, 0);
  const key = `refund:${p.refundId}`;
  if (await uow.ledger.entryByKey(key)) return;
  const usable = Math.max(0, await uow.ledger.accountBalance(p.accountId, p.livemode, p.currency, "available"));
  const tr = await uow.ledger.trancheOfTransaction(p.accountId, p.livemode, p.transactionId);
  const trancheOpen = tr && tr.releasedAt === null && tr.currency === p.currency ? tr : undefined;
  const fromAvailable = Math.min(p.amount, Math.max(0, usable - fee));
  const fromPending = p.amount - fromAvailable;
  if (fee > usable || fromPending > (trancheOpen?.remaining ?? 0))
    throw new DomainError("insufficient_balance", "The account balance is insufficient to cover this refund.");
  const lines: LineInput[] = [
    { ledgerAccount: "available", amount: -(fromAvailable + fee) },
    { ledgerAccount: "external_payer", amount: p.amount },
    { ledgerAccount: "platform_fee_revenue", amount: fee },
  ];
  if (fromPending > 0) {
    lines.push({ ledgerAccount: "pending", amount: -fromPending, trancheId: trancheOpen!.id });
    await adjustTrancheRemaining(uow, trancheOpen!, -fromPending);
  }
  await postEntry(uow, {
    accountId: p.accountId,
    livemode: p.livemode,
    currency: p.currency,
    kind: "refund",
    causeKind: "refund",
    causeId: p.refundId,
    idempotencyKey: key,
    meta: { transactionId: p.transactionId, fromAvailable, fromPending, pixOutFee: fee },
    lines,
    now: deps.clock.nowMs(),
  });
}

/**
 * Reverses `debitRefund` of `refundId` when the refund fails: every line negated. The part drawn
 * from a pending tranche goes back to it while unreleased, else to `available` (the tranche has
 * been released meanwhile). No-op when the refund was never debited or is already restored.
 * Key `refund_restore:<refundId>`.
 */
export function restoreRefund(deps: Deps, uow: LedgerUnit, p: { refundId: string }): Promise<void> {
  return restore(deps, uow, p);
}

async function restore(deps: Deps, uow: Uow, p: { refundId: string }): Promise<void> {
  const original = await uow.ledger.entryByKey(`refund:${p.refundId}`);
  const key = `refund_restore:${p.refundId}`;
  if (!original || (await uow.ledger.entryByKey(key))) return;
  const lines: LineInput[] = [];
  for (const l of await uow.ledger.entryLines(original.id)) {
    const account = l.ledgerAccount as LedgerAccount;
    if (account === "pending" && l.trancheId) {
      const tr = await uow.ledger.tranche(l.trancheId);
      if (tr && tr.releasedAt === null) {
        await adjustTrancheRemaining(uow, tr, -l.amount);
        lines.push({ ledgerAccount: "pending", amount: -l.amount, trancheId: tr.id });
        continue;
      }
      lines.push({ ledgerAccount: "available", amount: -l.amount });
      continue;
    }
    lines.push({ ledgerAccount: account, amount: -l.amount });
  }
  await postEntry(uow, {
    accountId: original.accountId,
    livemode: original.livemode,
    currency: original.currency,
    kind: "refund_restore",
    causeKind: "refund",
    causeId: p.refundId,
    idempotencyKey: key,
    lines,
    now: deps.clock.nowMs(),
  });
}

/**
 * Holds a MED amount: `available` -> `retained` (interface.md "MED case status": debited from the
 * operational balance, which may go negative). Key `med_hold:<medCaseId>`; a repeat is a no-op.
 */
export function holdMed(deps: Deps, uow: LedgerUnit, p: HoldMedInput): Promise<void> {
  return hold(deps, uow, p);
}

async function hold(deps: Deps, uow: Uow, p: HoldMedInput): Promise<void> {
  assertAmount("amount", p.amount);
  await postEntry(uow, {
    accountId: p.accountId,
    livemode: p.livemode,
    currency: p.currency,
    kind: "med_hold",
    causeKind: "med_case",
    causeId: p.medCaseId,
    idempotencyKey: `med_hold:${p.medCaseId}`,
    lines: [
      { ledgerAccount: "available", amount: -p.amount },
      { ledgerAccount: "retained", amount: p.amount },
    ],
    allowNegativeAvailable: true,
    now: deps.clock.nowMs(),
  });
}

/**
 * Ends a MED hold: `refunded_to_merchant` moves the held amount back to `available`;
 * `lost` and `closed_without_refund` pay it out to the external payer. Key
 * `med_settle:<medCaseId>`; a repeat (whatever its outcome) is a no-op. Rejects with
 * `LedgerInvariantError` when the case has no hold.
 */
export function settleMedHold(deps: Deps, uow: LedgerUnit, p: SettleMedHoldInput): Promise<void> {
  return settleHold(deps, uow, p);
}

async function settleHold(deps: Deps, uow: Uow, p: SettleMedHoldInput): Promise<void> {
  const key = `med_settle:${p.medCaseId}`;
  if (await uow.ledger.entryByKey(key)) return;
  const hold = await uow.ledger.entryByKey(`med_hold:${p.medCaseId}`);
  if (!hold) throw new LedgerInvariantError(`no MED hold for ${p.medCaseId}`);
  const held = (await uow.ledger.entryLines(hold.id)).find((l) => l.ledgerAccount === "retained")!.amount;
  const to: LedgerAccount = p.outcome === "refunded_to_merchant" ? "available" : "external_payer";
  await postEntry(uow, {
    accountId: hold.accountId,
    livemode: hold.livemode,
    currency: hold.currency,
    kind: "med_settle",
    causeKind: "med_case",
    causeId: p.medCaseId,
    idempotencyKey: key,
    meta: { outcome: p.outcome },
    lines: [
      { ledgerAccount: "retained", amount: -held },
      { ledgerAccount: to, amount: held },
    ],
    now: deps.clock.nowMs(),
  });
}
