/**
 * Ledger postings of payouts (extensions.md "Payouts (money out)": "Ledger lines for every step").
 * Amounts in minor units (centavos); each call writes one balanced entry in the caller's unit
 * `uow`, keyed by its cause, so a repeat is a no-op.
 *   accepted (`payout:<id>`):           available -(amount + fee); payout_in_transit +amount; platform_fee_revenue +fee
 *   paid (`payout_paid:<id>`):          payout_in_transit -amount; external_payer +amount
 *   failed or cancelled (`payout_reversal:<id>`): the accepted entry negated (amount + fee back to available)
 * Overdraw: `debitPayout` reads `available` through `ledger.accountBalance`, which on PostgreSQL
 * takes the merchant's debit lock for the rest of the unit (src/store/pg/ledger.ts), so concurrent
 * payouts of one account queue there and each sees the others' debits; SQLite runs one unit at a time.
 */
import type { Deps } from "../deps";
import { DomainError } from "../errors";
import { LedgerInvariantError, postEntry, type LedgerAccount } from "./post";
import type { LedgerUnit } from "./unit";

export interface DebitPayoutInput {
  accountId: string;
  livemode: boolean;
  currency: string;
  /** Minor units, >= 1. */
  amount: number;
  /** Platform fee, minor units, >= 0. */
  fee: number;
  /** The payout (`po_...`): the cause and the idempotency key. */
  payoutId: string;
}

/** The cause of a payout's entries. */
const cause = (payoutId: string) => ({ causeKind: "payout", causeId: payoutId });

/**
 * Takes `amount + fee` out of `available` for payout `payoutId` (see the module header). Rejects
 * with DomainError 400 `insufficient_balance` when `available` (read under the debit lock) is
 * short, before anything is written; with LedgerInvariantError on a bad amount or fee.
 */
export async function debitPayout(deps: Deps, uow: LedgerUnit, p: DebitPayoutInput): Promise<void> {
  if (!Number.isSafeInteger(p.amount) || p.amount < 1 || !Number.isSafeInteger(p.fee) || p.fee < 0)
    throw new LedgerInvariantError(`bad payout amount ${p.amount} or fee ${p.fee}`);
  const key = `payout:${p.payoutId}`;
  if (await uow.ledger.entryByKey(key)) return;
  const available = await uow.ledger.accountBalance(p.accountId, p.livemode, p.currency, "available");
  if (p.amount + p.fee > available)
    throw new DomainError(
      "insufficient_balance",
      `The available balance (${Math.max(0, available)}) does not cover the amount plus the payout fee (${p.amount + p.fee}).`,
      {
        param: "amount",
      },
    );
  await postEntry(uow, {
    accountId: p.accountId,
    livemode: p.livemode,
    currency: p.currency,
    kind: "payout",
    ...cause(p.payoutId),
    idempotencyKey: key,
    meta: { amount: p.amount, fee: p.fee },
    lines: [
      { ledgerAccount: "available", amount: -(p.amount + p.fee) },
      { ledgerAccount: "payout_in_transit", amount: p.amount },
      { ledgerAccount: "platform_fee_revenue", amount: p.fee },
    ],
    now: deps.clock.nowMs(),
  });
}

/** Payout `payoutId` was paid: its amount leaves `payout_in_transit` to the payee. No-op without the accepted entry or when already posted. */
export async function settlePayout(deps: Deps, uow: LedgerUnit, payoutId: string): Promise<void> {
  await follow(deps, uow, payoutId, "payout_paid", (l) =>
    l.ledgerAccount === "payout_in_transit"
      ? [
          { ledgerAccount: "payout_in_transit", amount: -l.amount },
          { ledgerAccount: "external_payer", amount: l.amount },
        ]
      : [],
  );
}

/** Payout `payoutId` failed or was cancelled: the accepted entry negated, `amount + fee` back to `available`. No-op without it or when already posted. */
export async function reversePayout(deps: Deps, uow: LedgerUnit, payoutId: string): Promise<void> {
  await follow(deps, uow, payoutId, "payout_reversal", (l) => [
    { ledgerAccount: l.ledgerAccount as LedgerAccount, amount: -l.amount },
  ]);
}

/** Posts `kind` (`<kind>:<payoutId>`) from the lines of the accepted entry mapped by `map`. */
async function follow(
  deps: Deps,
  uow: LedgerUnit,
  payoutId: string,
  kind: "payout_paid" | "payout_reversal",
  map: (l: { ledgerAccount: string; amount: number }) => { ledgerAccount: LedgerAccount; amount: number }[],
): Promise<void> {
  const original = await uow.ledger.entryByKey(`payout:${payoutId}`);
  const key = `${kind}:${payoutId}`;
  if (!original || (await uow.ledger.entryByKey(key))) return;
  const lines = (await uow.ledger.entryLines(original.id)).flatMap(map);
  await postEntry(uow, {
    accountId: original.accountId,
    livemode: original.livemode,
    currency: original.currency,
    kind,
    ...cause(payoutId),
    idempotencyKey: key,
    lines,
    now: deps.clock.nowMs(),
  });
}
