/**
 * Integrity check (`cofre ledger verify`, `expectLedgerBalanced` in tests): recomputes every
 * materialised balance and every tranche from the journal lines and reports each disagreement.
 * Full scan by design (the adapter's `ledger.scan()`); never called on a request path.
 */
import type { LedgerMismatch, LedgerReport } from "./index";
import type { LedgerScan } from "../../store/port/ledger";
import { NEVER_NEGATIVE } from "./post";
import type { LedgerReader } from "./unit";

/**
 * Checks: (1) each entry has >= 2 lines summing to zero per currency; (2) each materialised
 * balance equals the sum of its lines (and no lines lack a balance row); (3) pending, retained and
 * fee revenue are never negative; (4) each tranche's pending lines sum to its unreleased remainder
 * (0 once released) and every pending line names a tranche; (5) with `reader.payouts`: each
 * merchant's `payout_in_transit` equals the amounts of its payouts still pending or processing
 * (a paid, failed or cancelled payout left it; src/domain/ledger/payouts.ts). `ok` is true when nothing disagrees.
 * `reader`: `deps.store.read` (or a uow).
 */
export async function verifyLedger(reader: LedgerReader): Promise<LedgerReport> {
  const scan = await reader.ledger.scan();
  const mismatches: LedgerMismatch[] = [];
  let checked = 0;

  checked += scan.entries.length;
  for (const e of scan.entries) {
    if (e.lines < 2 || e.total !== 0)
      mismatches.push({
        kind: "entry_unbalanced",
        entryId: e.id,
        expected: 0,
        actual: e.total,
        message: `entry has ${e.lines} lines summing to ${e.total}`,
      });
  }
  for (const r of scan.unbalancedCurrencies)
    mismatches.push({
      kind: "entry_unbalanced",
      entryId: r.entryId,
      currency: r.currency,
      expected: 0,
      actual: r.total,
      message: "lines do not sum to zero in this currency",
    });

  checked += scan.balances.length;
  for (const b of scan.balances) {
    const where = {
      accountId: b.accountId,
      livemode: b.livemode,
      currency: b.currency,
      ledgerAccount: b.ledgerAccount,
    };
    if (b.materialised === null || b.materialised !== b.recomputed)
      mismatches.push({
        kind: "balance",
        ...where,
        expected: b.recomputed,
        actual: b.materialised ?? 0,
        message: "materialised balance differs from the journal",
      });
    if (b.recomputed < 0 && (NEVER_NEGATIVE as readonly string[]).includes(where.ledgerAccount))
      mismatches.push({
        kind: "negative",
        ...where,
        actual: b.recomputed,
        message: `${where.ledgerAccount} is negative`,
      });
  }

  checked += scan.tranches.length;
  for (const tr of scan.tranches) {
    const expected = tr.releasedAt === null ? tr.remaining : 0;
    if (tr.pendingTotal !== expected || tr.remaining < 0 || (tr.releasedAt !== null && tr.remaining !== 0))
      mismatches.push({
        kind: "tranche",
        trancheId: tr.id,
        accountId: tr.accountId,
        livemode: tr.livemode,
        currency: tr.currency,
        expected,
        actual: tr.pendingTotal,
        message: "pending lines of the tranche differ from its unreleased remainder",
      });
  }
  if (scan.orphanPendingLines > 0)
    mismatches.push({
      kind: "tranche",
      actual: scan.orphanPendingLines,
      message: "pending lines without a known tranche",
    });

  if (reader.payouts) checked += await checkPayouts(reader.payouts, scan.balances, mismatches);

  return { ok: mismatches.length === 0, checked, mismatches };
}

/** Check (5): `payout_in_transit` of each merchant against its payouts in flight; returns how many merchants were compared. */
async function checkPayouts(
  payouts: NonNullable<LedgerReader["payouts"]>,
  balances: LedgerScan["balances"],
  mismatches: LedgerMismatch[],
): Promise<number> {
  const key = (r: { accountId: string; livemode: boolean; currency: string }) =>
    `${r.accountId}|${r.livemode}|${r.currency}`;
  const expected = new Map<string, { accountId: string; livemode: boolean; currency: string; amount: number }>();
  for (const t of await payouts.inFlightTotals())
    expected.set(key(t), { ...t, livemode: Boolean(t.livemode), amount: Number(t.amount) });
  const actual = new Map<string, number>();
  for (const b of balances) if (b.ledgerAccount === "payout_in_transit") actual.set(key(b), b.recomputed);
  const keys = new Set([...expected.keys(), ...[...actual.entries()].filter(([, v]) => v !== 0).map(([k]) => k)]);
  for (const k of keys) {
    const want = expected.get(k)?.amount ?? 0;
    const got = actual.get(k) ?? 0;
    if (want === got) continue;
    const [accountId, livemode, currency] = k.split("|");
    mismatches.push({
      kind: "payout",
      accountId,
      livemode: livemode === "true",
      currency,
      ledgerAccount: "payout_in_transit",
      expected: want,
      actual: got,
      message: "payout_in_transit differs from the payouts still pending or processing",
    });
  }
  return keys.size;
}
