/**
 * Ledger assertions for money-moving tests: call `await expectLedgerBalanced(h.deps)` after a
 * scenario; it runs the integrity check (verifyLedger) and fails the test listing every disagreement.
 */
import { expect } from "bun:test";
import type { Deps } from "../../src/deps";
import { verifyLedger } from "../../src/domain/ledger/verify";
import { getBalance } from "../../src/domain/ledger/balances";

/** Fails the current test when any journal entry or materialised balance disagrees. */
export async function expectLedgerBalanced(deps: Pick<Deps, "store">): Promise<void> {
  const report = await verifyLedger(deps.store.read);
  expect(report.mismatches).toEqual([]);
  expect(report.ok).toBe(true);
}

/** `{available, pending, retained}` of (account, mode, currency), minor units; for before/after asserts. */
export async function ledgerBalance(deps: Pick<Deps, "store">, accountId: string, livemode = false, currency = "BRL") {
  const b = await getBalance(deps.store.read, accountId, livemode, currency);
  return { available: b.available, pending: b.pending, retained: b.retained };
}
