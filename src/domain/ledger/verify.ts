/**
 * Integrity check (`cofre ledger verify`, `expectLedgerBalanced` in tests): recomputes every
 * materialised balance and every tranche from the journal lines and reports each disagreement.
 * Full scan by design; never called on a request path.
 */
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import type { LedgerMismatch, LedgerReport } from "./index";
import { NEVER_NEGATIVE } from "./post";

type Row = Record<string, unknown>;

function all(db: DbOrTx, q: ReturnType<typeof sql>): Row[] {
  return db.all(q) as Row[];
}

/**
 * Checks: (1) each entry has >= 2 lines summing to zero per currency; (2) each materialised
 * balance equals the sum of its lines (and no lines lack a balance row); (3) pending, retained and
 * fee revenue are never negative; (4) each tranche's pending lines sum to its unreleased remainder
 * (0 once released) and every pending line names a tranche. `ok` is true when nothing disagrees.
 */
export function verifyLedger(db: DbOrTx): LedgerReport {
  const mismatches: LedgerMismatch[] = [];
  let checked = 0;

  const entries = all(
    db,
    sql`select e.id as id, count(l.id) as n, coalesce(sum(l.amount), 0) as total
        from ledger_entries e left join ledger_lines l on l.entry_id = e.id group by e.id`,
  );
  checked += entries.length;
  for (const e of entries) {
    if (Number(e.n) < 2 || Number(e.total) !== 0)
      mismatches.push({ kind: "entry_unbalanced", entryId: String(e.id), expected: 0, actual: Number(e.total), message: `entry has ${e.n} lines summing to ${e.total}` });
  }
  const perCurrency = all(
    db,
    sql`select entry_id, currency, sum(amount) as total from ledger_lines group by entry_id, currency having sum(amount) != 0`,
  );
  for (const r of perCurrency)
    mismatches.push({ kind: "entry_unbalanced", entryId: String(r.entry_id), currency: String(r.currency), expected: 0, actual: Number(r.total), message: "lines do not sum to zero in this currency" });

  const balances = all(
    db,
    sql`select b.account_id, b.livemode, b.currency, b.ledger_account, b.balance as materialised, coalesce(l.total, 0) as recomputed
        from ledger_balances b left join (
          select account_id, livemode, currency, ledger_account, sum(amount) as total from ledger_lines
          group by account_id, livemode, currency, ledger_account
        ) l on l.account_id = b.account_id and l.livemode = b.livemode and l.currency = b.currency and l.ledger_account = b.ledger_account
        union all
        select l.account_id, l.livemode, l.currency, l.ledger_account, null as materialised, sum(l.amount) as recomputed
        from ledger_lines l where not exists (
          select 1 from ledger_balances b where b.account_id = l.account_id and b.livemode = l.livemode
            and b.currency = l.currency and b.ledger_account = l.ledger_account)
        group by l.account_id, l.livemode, l.currency, l.ledger_account`,
  );
  checked += balances.length;
  for (const b of balances) {
    const where = { accountId: String(b.account_id), livemode: Boolean(b.livemode), currency: String(b.currency), ledgerAccount: String(b.ledger_account) };
    const recomputed = Number(b.recomputed);
    if (b.materialised === null || Number(b.materialised) !== recomputed)
      mismatches.push({ kind: "balance", ...where, expected: recomputed, actual: b.materialised === null ? 0 : Number(b.materialised), message: "materialised balance differs from the journal" });
    if (recomputed < 0 && (NEVER_NEGATIVE as readonly string[]).includes(where.ledgerAccount))
      mismatches.push({ kind: "negative", ...where, actual: recomputed, message: `${where.ledgerAccount} is negative` });
  }

  const tranches = all(
    db,
    sql`select t.id, t.account_id, t.livemode, t.currency, t.remaining, t.released_at, coalesce(l.total, 0) as total
        from ledger_tranches t left join (
          select tranche_id, sum(amount) as total from ledger_lines where ledger_account = 'pending' group by tranche_id
        ) l on l.tranche_id = t.id`,
  );
  checked += tranches.length;
  for (const tr of tranches) {
    const expected = tr.released_at === null ? Number(tr.remaining) : 0;
    if (Number(tr.total) !== expected || Number(tr.remaining) < 0 || (tr.released_at !== null && Number(tr.remaining) !== 0))
      mismatches.push({
        kind: "tranche",
        trancheId: String(tr.id),
        accountId: String(tr.account_id),
        livemode: Boolean(tr.livemode),
        currency: String(tr.currency),
        expected,
        actual: Number(tr.total),
        message: "pending lines of the tranche differ from its unreleased remainder",
      });
  }
  const orphans = all(
    db,
    sql`select count(*) as n from ledger_lines l where l.ledger_account = 'pending'
        and (l.tranche_id is null or not exists (select 1 from ledger_tranches t where t.id = l.tranche_id))`,
  );
  if (Number(orphans[0]?.n ?? 0) > 0)
    mismatches.push({ kind: "tranche", actual: Number(orphans[0]!.n), message: "pending lines without a known tranche" });

  return { ok: mismatches.length === 0, checked, mismatches };
}
