/**
 * The one way money moves: `postEntry` writes a journal entry, its lines and the materialised
 * balances in the caller's unit of work (`uow.ledger.post`). Lines are signed minor-unit amounts (positive increases
 * the ledger account's balance) and must sum to zero; the idempotency key makes a repeated cause
 * a no-op. Throws `LedgerInvariantError` when a rule would be broken (the unit rolls back).
 */
import { newId } from "../../lib/ids";
import type { Uow } from "../../store/port";

/**
 * Merchant wallets plus the counterparts that make every entry balance. `payout_in_transit`: the
 * amount of the merchant's payouts accepted and not yet paid, failed or cancelled (payouts.ts).
 */
export type LedgerAccount =
  | "available"
  | "pending"
  | "retained"
  | "platform_fee_revenue"
  | "external_payer"
  | "payout_in_transit";

/** The merchant-owned ledger accounts (what the wallet endpoints show). */
export const MERCHANT_ACCOUNTS: readonly LedgerAccount[] = ["available", "pending", "retained"];

/**
 * Ledger accounts that may never hold a negative balance (verifyLedger reports them; postEntry lets only
 * `external_payer` and, for MED holds, `available` go negative).
 */
export const NEVER_NEGATIVE: readonly LedgerAccount[] = [
  "pending",
  "retained",
  "platform_fee_revenue",
  "payout_in_transit",
];

/** A broken ledger rule (a bug in the caller, not a client error). */
export class LedgerInvariantError extends Error {}

export interface LineInput {
  ledgerAccount: LedgerAccount;
  /** Signed, minor units. */
  amount: number;
  /** Required on `pending` lines. */
  trancheId?: string;
}

export interface EntryInput {
  accountId: string;
  livemode: boolean;
  currency: string;
  kind: string;
  causeKind: string;
  causeId: string;
  idempotencyKey: string;
  meta?: unknown;
  lines: LineInput[];
  /** `available` may end negative only when listed here (MED holds). */
  allowNegativeAvailable?: boolean;
  now: number;
}

/**
 * Posts one balanced entry in `uow` (lines of the same ledger account and tranche are merged).
 * Resolves to its id, or null when `idempotencyKey` was already posted (nothing is written). Zero
 * lines are dropped; at least two non-zero lines must remain. Rejects with LedgerInvariantError.
 */
export async function postEntry(uow: Uow, e: EntryInput): Promise<string | null> {
  if (await uow.ledger.entryByKey(e.idempotencyKey)) return null;
  const merged = new Map<string, LineInput>();
  for (const l of e.lines) {
    const k = `${l.ledgerAccount}|${l.trancheId ?? ""}`;
    const prev = merged.get(k);
    merged.set(k, prev ? { ...prev, amount: prev.amount + l.amount } : { ...l });
  }
  const lines = [...merged.values()].filter((l) => l.amount !== 0);
  for (const l of lines) {
    if (!Number.isSafeInteger(l.amount))
      throw new LedgerInvariantError(`ledger line amount must be an integer: ${l.amount}`);
    if (l.ledgerAccount === "pending" && !l.trancheId) throw new LedgerInvariantError("pending lines need a tranche");
  }
  if (lines.length < 2)
    throw new LedgerInvariantError(`ledger entry ${e.idempotencyKey} needs two or more non-zero lines`);
  const sum = lines.reduce((s, l) => s + l.amount, 0);
  if (sum !== 0) throw new LedgerInvariantError(`ledger entry ${e.idempotencyKey} does not balance (sum ${sum})`);

  const mayGoNegative = (ledgerAccount: string) =>
    ledgerAccount === "external_payer" || (ledgerAccount === "available" && !!e.allowNegativeAvailable);
  const entryId = newId("ledgerEntry");
  const after = await uow.ledger.post({
    id: entryId,
    accountId: e.accountId,
    livemode: e.livemode,
    currency: e.currency,
    kind: e.kind,
    causeKind: e.causeKind,
    causeId: e.causeId,
    idempotencyKey: e.idempotencyKey,
    meta: e.meta === undefined ? null : JSON.stringify(e.meta),
    lines: lines.map((l) => ({
      ledgerAccount: l.ledgerAccount,
      amount: l.amount,
      trancheId: l.trancheId ?? null,
      mayGoNegative: mayGoNegative(l.ledgerAccount),
    })),
    now: e.now,
  });
  // Throwing rolls the whole unit back (the lines just written included).
  lines.forEach((l, i) => {
    if (l.amount < 0 && after[i]! < 0) {
      if (!mayGoNegative(l.ledgerAccount))
        throw new LedgerInvariantError(
          `ledger account ${l.ledgerAccount} of ${e.accountId} would go negative (${after[i]})`,
        );
    }
  });
  return entryId;
}
