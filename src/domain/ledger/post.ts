/**
 * The one way money moves: `postEntry` writes a journal entry, its lines and the materialised
 * balances in the caller's transaction. Lines are signed minor-unit amounts (positive increases
 * the ledger account's balance) and must sum to zero; the idempotency key makes a repeated cause
 * a no-op. Throws `LedgerInvariantError` when a rule would be broken (the transaction rolls back).
 */
import { and, eq, sql } from "drizzle-orm";
import { ledgerBalances, ledgerEntries, ledgerLines } from "../../../db/schema";
import type { DbOrTx, Tx } from "../../db/client";
import { newId } from "../../lib/ids";

/** Merchant wallets plus the counterparts that make every entry balance. */
export type LedgerAccount = "available" | "pending" | "retained" | "platform_fee_revenue" | "external_payer";

/** The merchant-owned ledger accounts (what the wallet endpoints show). */
export const MERCHANT_ACCOUNTS: readonly LedgerAccount[] = ["available", "pending", "retained"];

/** Ledger accounts that may never hold a negative balance (verifyLedger reports them; postEntry lets only `external_payer` and, for MED holds, `available` go negative). */
export const NEVER_NEGATIVE: readonly LedgerAccount[] = ["pending", "retained", "platform_fee_revenue"];

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

/** The entry already posted under `key`, if any. */
export function findEntryByKey(db: DbOrTx, key: string) {
  return db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, key)).get();
}

/** Lines of one entry, in insertion order. */
export function entryLines(db: DbOrTx, entryId: string) {
  return db.select().from(ledgerLines).where(eq(ledgerLines.entryId, entryId)).orderBy(ledgerLines.id).all();
}

/** Materialised balance of one ledger account (0 when it never moved). */
export function bucketBalance(db: DbOrTx, accountId: string, livemode: boolean, currency: string, ledgerAccount: LedgerAccount): number {
  const row = db
    .select({ balance: ledgerBalances.balance })
    .from(ledgerBalances)
    .where(
      and(
        eq(ledgerBalances.accountId, accountId),
        eq(ledgerBalances.livemode, livemode),
        eq(ledgerBalances.currency, currency),
        eq(ledgerBalances.ledgerAccount, ledgerAccount),
      ),
    )
    .get();
  return row?.balance ?? 0;
}

/**
 * Posts one balanced entry (lines of the same ledger account and tranche are merged). Returns its id, or null when `idempotencyKey` was already posted
 * (nothing is written). Zero lines are dropped; at least two non-zero lines must remain.
 */
export function postEntry(t: Tx, e: EntryInput): string | null {
  if (findEntryByKey(t, e.idempotencyKey)) return null;
  const merged = new Map<string, LineInput>();
  for (const l of e.lines) {
    const k = `${l.ledgerAccount}|${l.trancheId ?? ""}`;
    const prev = merged.get(k);
    merged.set(k, prev ? { ...prev, amount: prev.amount + l.amount } : { ...l });
  }
  const lines = [...merged.values()].filter((l) => l.amount !== 0);
  for (const l of lines) {
    if (!Number.isSafeInteger(l.amount)) throw new LedgerInvariantError(`ledger line amount must be an integer: ${l.amount}`);
    if (l.ledgerAccount === "pending" && !l.trancheId) throw new LedgerInvariantError("pending lines need a tranche");
  }
  if (lines.length < 2) throw new LedgerInvariantError(`ledger entry ${e.idempotencyKey} needs two or more non-zero lines`);
  const sum = lines.reduce((s, l) => s + l.amount, 0);
  if (sum !== 0) throw new LedgerInvariantError(`ledger entry ${e.idempotencyKey} does not balance (sum ${sum})`);

  const entryId = newId("ledgerEntry");
  t.insert(ledgerEntries)
    .values({
      id: entryId,
      accountId: e.accountId,
      livemode: e.livemode,
      currency: e.currency,
      kind: e.kind,
      causeKind: e.causeKind,
      causeId: e.causeId,
      idempotencyKey: e.idempotencyKey,
      meta: e.meta === undefined ? null : JSON.stringify(e.meta),
      createdAt: e.now,
    })
    .run();
  for (const l of lines) {
    t.insert(ledgerLines)
      .values({
        entryId,
        accountId: e.accountId,
        livemode: e.livemode,
        currency: e.currency,
        ledgerAccount: l.ledgerAccount,
        amount: l.amount,
        trancheId: l.trancheId ?? null,
      })
      .run();
    const row = t
      .insert(ledgerBalances)
      .values({ accountId: e.accountId, livemode: e.livemode, currency: e.currency, ledgerAccount: l.ledgerAccount, balance: l.amount, updatedAt: e.now })
      .onConflictDoUpdate({
        target: [ledgerBalances.accountId, ledgerBalances.livemode, ledgerBalances.currency, ledgerBalances.ledgerAccount],
        set: { balance: sql`${ledgerBalances.balance} + excluded.balance`, updatedAt: e.now },
      })
      .returning({ balance: ledgerBalances.balance })
      .get();
    const after = row!.balance;
    if (l.amount < 0 && after < 0) {
      const negativeOk = l.ledgerAccount === "external_payer" || (l.ledgerAccount === "available" && e.allowNegativeAvailable);
      if (!negativeOk) throw new LedgerInvariantError(`ledger account ${l.ledgerAccount} of ${e.accountId} would go negative (${after})`);
    }
  }
  return entryId;
}
