/**
 * Balance reads for the wallet endpoints: O(1) per currency (three materialised rows plus one
 * indexed lookup of the next pending tranche), never a journal scan.
 */
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { ledgerBalances, ledgerTranches } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";
import { MERCHANT_ACCOUNTS } from "./post";
import type { Balance } from "./index";

/**
 * Balance of (account, mode, currency), minor units: `available`, `pending`, `retained`, and the
 * earliest unreleased tranche's release time (epoch ms) with the amount releasing then.
 * Zeros and nulls for an account without activity.
 */
export function getBalance(db: DbOrTx, accountId: string, livemode: boolean, currency: string): Balance {
  const rows = db
    .select({ ledgerAccount: ledgerBalances.ledgerAccount, balance: ledgerBalances.balance })
    .from(ledgerBalances)
    .where(
      and(
        eq(ledgerBalances.accountId, accountId),
        eq(ledgerBalances.livemode, livemode),
        eq(ledgerBalances.currency, currency),
        inArray(ledgerBalances.ledgerAccount, [...MERCHANT_ACCOUNTS]),
      ),
    )
    .all();
  const by = new Map(rows.map((r) => [r.ledgerAccount, r.balance]));
  const open = and(
    eq(ledgerTranches.accountId, accountId),
    eq(ledgerTranches.livemode, livemode),
    eq(ledgerTranches.currency, currency),
    isNull(ledgerTranches.releasedAt),
    gt(ledgerTranches.remaining, 0),
  );
  const next = db.select({ at: ledgerTranches.releaseAt }).from(ledgerTranches).where(open).orderBy(asc(ledgerTranches.releaseAt)).limit(1).get();
  let nextReleaseAmount: number | null = null;
  if (next) {
    nextReleaseAmount = db
      .select({ sum: sql<number>`coalesce(sum(${ledgerTranches.remaining}), 0)` })
      .from(ledgerTranches)
      .where(and(open, eq(ledgerTranches.releaseAt, next.at)))
      .get()!.sum;
  }
  return {
    available: by.get("available") ?? 0,
    pending: by.get("pending") ?? 0,
    retained: by.get("retained") ?? 0,
    nextReleaseAt: next?.at ?? null,
    nextReleaseAmount,
  };
}

/** Currencies in which (account, mode) has any merchant balance row, sorted. */
export function listCurrencies(db: DbOrTx, accountId: string, livemode: boolean): string[] {
  return db
    .selectDistinct({ currency: ledgerBalances.currency })
    .from(ledgerBalances)
    .where(and(eq(ledgerBalances.accountId, accountId), eq(ledgerBalances.livemode, livemode), inArray(ledgerBalances.ledgerAccount, [...MERCHANT_ACCOUNTS])))
    .orderBy(asc(ledgerBalances.currency))
    .all()
    .map((r) => r.currency);
}
