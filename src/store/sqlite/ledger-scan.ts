/** The full scans of the ledger integrity check (src/domain/ledger/verify.ts); never on a request path. */
import { sql } from "drizzle-orm";
import { ledgerScanOf, type LedgerScan } from "../port/ledger";
import type { SqliteContext } from "./context";

type Row = Record<string, unknown>;

/** Reads entries, per-currency sums, balances against their lines, tranches and orphan lines. */
export function ledgerScan(ctx: SqliteContext): LedgerScan {
  const all = (q: ReturnType<typeof sql>) => ctx.db.all(q) as Row[];
  const entries = all(
    sql`select e.id as id, count(l.id) as n, coalesce(sum(l.amount), 0) as total
        from ledger_entries e left join ledger_lines l on l.entry_id = e.id group by e.id`,
  );
  const perCurrency = all(
    sql`select entry_id, currency, sum(amount) as total from ledger_lines group by entry_id, currency having sum(amount) != 0`,
  );
  const balances = all(
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
  const tranches = all(
    sql`select t.id, t.account_id, t.livemode, t.currency, t.remaining, t.released_at, coalesce(l.total, 0) as total
        from ledger_tranches t left join (
          select tranche_id, sum(amount) as total from ledger_lines where ledger_account = 'pending' group by tranche_id
        ) l on l.tranche_id = t.id`,
  );
  const orphans = all(
    sql`select count(*) as n from ledger_lines l where l.ledger_account = 'pending'
        and (l.tranche_id is null or not exists (select 1 from ledger_tranches t where t.id = l.tranche_id))`,
  );
  return ledgerScanOf({ entries, perCurrency, balances, tranches, orphans });
}
