/**
 * The full scans of the ledger integrity check (src/domain/ledger/verify.ts, port: src/store/port/ledger.ts `scan`);
 * never on a request path.
 */
import { ledgerScanOf, type LedgerScan } from "../port/ledger";
import type { SQL } from "bun";

type Row = Record<string, unknown>;

/**
 * Reads entries, per-currency sums, balances against their lines, tranches and orphan lines. A
 * materialised balance is the sum of its ledger account's shards (./ledger.ts), one row per
 * ledger account as on SQLite.
 *
 * `sql`: the pool, or a unit's transaction (what `cofre import-sqlite` checks before it commits).
 */
export async function ledgerScan(sql: SQL): Promise<LedgerScan> {
  const entries = (await sql`
    select e.id as id, count(l.id) as n, coalesce(sum(l.amount), 0) as total
    from ledger_entries e left join ledger_lines l on l.entry_id = e.id group by e.id`) as Row[];
  const perCurrency = (await sql`
    select entry_id, currency, sum(amount) as total from ledger_lines group by entry_id, currency having sum(amount) <> 0`) as Row[];
  const balances = (await sql`
    select b.account_id, b.livemode, b.currency, b.ledger_account, b.total as materialised, coalesce(l.total, 0) as recomputed
    from (
      select account_id, livemode, currency, ledger_account, sum(balance) as total from ledger_balances
      group by account_id, livemode, currency, ledger_account
    ) b left join (
      select account_id, livemode, currency, ledger_account, sum(amount) as total from ledger_lines
      group by account_id, livemode, currency, ledger_account
    ) l on l.account_id = b.account_id and l.livemode = b.livemode and l.currency = b.currency and l.ledger_account = b.ledger_account
    union all
    select l.account_id, l.livemode, l.currency, l.ledger_account, null, sum(l.amount)
    from ledger_lines l where not exists (
      select 1 from ledger_balances b where b.account_id = l.account_id and b.livemode = l.livemode
        and b.currency = l.currency and b.ledger_account = l.ledger_account)
    group by l.account_id, l.livemode, l.currency, l.ledger_account`) as Row[];
  const tranches = (await sql`
    select t.id, t.account_id, t.livemode, t.currency, t.remaining, t.released_at, coalesce(l.total, 0) as total
    from ledger_tranches t left join (
      select tranche_id, sum(amount) as total from ledger_lines where ledger_account = 'pending' group by tranche_id
    ) l on l.tranche_id = t.id`) as Row[];
  const orphans = (await sql`
    select count(*) as n from ledger_lines l where l.ledger_account = 'pending'
      and (l.tranche_id is null or not exists (select 1 from ledger_tranches t where t.id = l.tranche_id))`) as Row[];
  return ledgerScanOf({ entries, perCurrency, balances, tranches, orphans });
}
