/** SQLite implementation of the ledger repository (src/store/port/ledger.ts): journal, balances, tranches. */
import { and, eq, isNull } from "drizzle-orm";
import { ledgerLines, ledgerTranches } from "../../../db/schema";
import type { LedgerRepo, MerchantBalance, StatementEntry } from "../port/ledger";
import type { LedgerEntryRow } from "../rows";
import type { SqliteContext } from "./context";
import { ledgerScan } from "./ledger-scan";

/** The merchant-owned ledger accounts (src/domain/ledger/post.ts MERCHANT_ACCOUNTS). */
const MERCHANT = "ledger_account in ('available', 'pending', 'retained')";
const OPEN_TRANCHE = "account_id = ?1 and livemode = ?2 and currency = ?3 and released_at is null and remaining > 0";
/** Wallet reads: raw statements prepared once per connection (drizzle's query building cost ~20x the queries). */
const BALANCE_ROWS = `select ledger_account, balance from ledger_balances where account_id = ?1 and livemode = ?2 and currency = ?3 and ${MERCHANT}`;
const NEXT_RELEASE = `select release_at as at, sum(remaining) as sum from ledger_tranches where ${OPEN_TRANCHE} group by release_at order by release_at asc limit 1`;
const CURRENCIES = `select distinct currency from ledger_balances where account_id = ?1 and livemode = ?2 and ${MERCHANT} order by currency`;
/** Money paths (charges paid, refunds, payouts): raw statements too. */
const ENTRY_BY_KEY = `select id, account_id as "accountId", livemode, currency, kind, cause_kind as "causeKind", cause_id as "causeId", idempotency_key as "idempotencyKey", meta, created_at as "createdAt" from ledger_entries where idempotency_key = ?`;
const ACCOUNT_BALANCE =
  "select coalesce(sum(balance), 0) as balance from ledger_balances where account_id = ? and livemode = ? and currency = ? and ledger_account = ?";
const INSERT_ENTRY =
  "insert into ledger_entries (id, account_id, livemode, currency, kind, cause_kind, cause_id, idempotency_key, meta, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
const INSERT_LINE =
  "insert into ledger_lines (entry_id, account_id, livemode, currency, ledger_account, amount, tranche_id) values (?, ?, ?, ?, ?, ?, ?)";
const ADD_BALANCE = `insert into ledger_balances (account_id, livemode, currency, ledger_account, balance, updated_at) values (?, ?, ?, ?, ?, ?)
  on conflict (account_id, livemode, currency, ledger_account, shard) do update set balance = balance + excluded.balance, updated_at = excluded.updated_at returning balance`;

/**
 * The statement (src/domain/ledger/statement.ts): one merchant's entries newest first through
 * `ledger_entries_statement_idx`, each with its lines summed (index `ledger_lines_entry_idx`).
 * SQLite resolves the result aliases `total` and `fee` in WHERE (it repeats the subqueries).
 */
const STATEMENT_COLUMNS = `select e.id, e.kind, e.cause_kind as "causeKind", e.cause_id as "causeId", e.created_at as "createdAt",
    (select coalesce(sum(l.amount), 0) from ledger_lines l where l.entry_id = e.id and l.ledger_account in ('available', 'pending')) as total,
    (select coalesce(sum(l.amount), 0) from ledger_lines l where l.entry_id = e.id and l.ledger_account = 'platform_fee_revenue') as fee,
    (select max(t.release_at) from ledger_lines l join ledger_tranches t on t.id = l.tranche_id where l.entry_id = e.id and l.ledger_account = 'pending' and l.amount > 0) as "releaseAt"
  from ledger_entries e
  where e.account_id = ?1 and e.livemode = ?2 and e.currency = ?3 and e.created_at between ?4 and ?5`;
const STATEMENT_TAIL = ` and (total <> 0 or fee <> 0) order by e.created_at desc, e.id desc limit ?6`;
const STATEMENT_FIRST = STATEMENT_COLUMNS + STATEMENT_TAIL;
const STATEMENT_AFTER = `${STATEMENT_COLUMNS} and (e.created_at < ?7 or (e.created_at = ?7 and e.id < ?8))${STATEMENT_TAIL}`;
const STATEMENT_FROM = `${STATEMENT_COLUMNS} and (e.created_at < ?7 or (e.created_at = ?7 and e.id <= ?8))${STATEMENT_TAIL}`;
const STATEMENT_POSITION = `select created_at as "createdAt", id, currency from ledger_entries where id = ?1 and account_id = ?2 and livemode = ?3`;
/** First and last entry times of a merchant (two min/max lookups on the statement index). */
const STATEMENT_SPAN = `select (select min(created_at) from ledger_entries where account_id = ?1 and livemode = ?2 and currency = ?3) as first,
  (select max(created_at) from ledger_entries where account_id = ?1 and livemode = ?2 and currency = ?3) as last`;
/** Total after a position, from the older side: the wallet lines of the entries up to it. */
const STATEMENT_TOTAL_UPTO = `select coalesce(sum(l.amount), 0) as total from ledger_entries e join ledger_lines l on l.entry_id = e.id and l.ledger_account in ('available', 'pending')
  where e.account_id = ?1 and e.livemode = ?2 and e.currency = ?3 and (e.created_at < ?4 or (e.created_at = ?4 and (?5 is null or e.id <= ?5)))`;
/** Total after a position, from the newer side: materialised balances minus the wallet lines of later entries (same snapshot: one statement). */
const STATEMENT_TOTAL_AT = `select
    (select coalesce(sum(balance), 0) from ledger_balances where account_id = ?1 and livemode = ?2 and currency = ?3 and ledger_account in ('available', 'pending'))
  - (select coalesce(sum(l.amount), 0) from ledger_entries e join ledger_lines l on l.entry_id = e.id and l.ledger_account in ('available', 'pending')
      where e.account_id = ?1 and e.livemode = ?2 and e.currency = ?3 and (e.created_at > ?4 or (e.created_at = ?4 and ?5 is not null and e.id > ?5))) as total`;

/** Builds the ledger repository on the adapter's connection `ctx`. */
export function ledgerRepo(ctx: SqliteContext): LedgerRepo {
  /** Merchant balances of `currencies`, synchronously (two prepared statements per currency). */
  const balancesOf = (accountId: string, livemode: boolean, currencies: readonly string[]): MerchantBalance[] => {
    const rows = ctx.stmt(BALANCE_ROWS);
    const next = ctx.stmt(NEXT_RELEASE);
    const mode = livemode ? 1 : 0;
    return currencies.map((currency): MerchantBalance => {
      const b: MerchantBalance = {
        available: 0,
        pending: 0,
        retained: 0,
        nextReleaseAt: null,
        nextReleaseAmount: null,
      };
      for (const r of rows.all(accountId, mode, currency) as {
        ledger_account: "available" | "pending" | "retained";
        balance: number;
      }[])
        b[r.ledger_account] = r.balance;
      const n = next.get(accountId, mode, currency) as { at: number; sum: number } | null;
      if (n) {
        b.nextReleaseAt = n.at;
        b.nextReleaseAmount = n.sum;
      }
      return b;
    });
  };
  const { db } = ctx;
  return {
    async entryByKey(key) {
      const row = ctx.stmt(ENTRY_BY_KEY).get(key) as (Omit<LedgerEntryRow, "livemode"> & { livemode: number }) | null;
      return row ? { ...row, livemode: row.livemode === 1 } : undefined;
    },

    async entryLines(entryId) {
      return db.select().from(ledgerLines).where(eq(ledgerLines.entryId, entryId)).orderBy(ledgerLines.id).all();
    },

    async accountBalance(accountId, livemode, currency, ledgerAccount) {
      return (
        (
          ctx.stmt(ACCOUNT_BALANCE).get(accountId, livemode ? 1 : 0, currency, ledgerAccount) as {
            balance: number;
          } | null
        )?.balance ?? 0
      );
    },

    async post(e) {
      const mode = e.livemode ? 1 : 0;
      ctx
        .stmt(INSERT_ENTRY)
        .run(e.id, e.accountId, mode, e.currency, e.kind, e.causeKind, e.causeId, e.idempotencyKey, e.meta, e.now);
      const line = ctx.stmt(INSERT_LINE);
      const add = ctx.stmt(ADD_BALANCE);
      const after: number[] = [];
      for (const l of e.lines) {
        line.run(e.id, e.accountId, mode, e.currency, l.ledgerAccount, l.amount, l.trancheId);
        after.push(
          (add.get(e.accountId, mode, e.currency, l.ledgerAccount, l.amount, e.now) as { balance: number }).balance,
        );
      }
      return after;
    },

    async merchantBalances(accountId, livemode, currencies) {
      return balancesOf(accountId, livemode, currencies);
    },

    async merchantBalanceSheet(accountId, livemode, first) {
      const others = (ctx.stmt(CURRENCIES).all(accountId, livemode ? 1 : 0) as { currency: string }[])
        .map((r) => r.currency)
        .filter((c) => c !== first);
      const currencies = [first, ...others];
      const balances = balancesOf(accountId, livemode, currencies);
      return currencies.map((currency, i) => ({ currency, balance: balances[i]! }));
    },

    async merchantCurrencies(accountId, livemode) {
      return (ctx.stmt(CURRENCIES).all(accountId, livemode ? 1 : 0) as { currency: string }[]).map((r) => r.currency);
    },

    async trancheOfTransaction(accountId, livemode, transactionId) {
      return db
        .select()
        .from(ledgerTranches)
        .where(
          and(
            eq(ledgerTranches.accountId, accountId),
            eq(ledgerTranches.livemode, livemode),
            eq(ledgerTranches.transactionId, transactionId),
          ),
        )
        .get();
    },

    async tranche(trancheId) {
      return db.select().from(ledgerTranches).where(eq(ledgerTranches.id, trancheId)).get();
    },

    async insertTranche(row) {
      db.insert(ledgerTranches).values(row).run();
    },

    async setTrancheRemaining(trancheId, remaining) {
      db.update(ledgerTranches)
        .set({ remaining })
        .where(and(eq(ledgerTranches.id, trancheId), isNull(ledgerTranches.releasedAt)))
        .run();
    },

    async markTrancheReleased(trancheId, now) {
      db.update(ledgerTranches).set({ remaining: 0, releasedAt: now }).where(eq(ledgerTranches.id, trancheId)).run();
    },

    async scan() {
      return ledgerScan(ctx);
    },

    async statementEntries(q) {
      const args: (string | number)[] = [q.accountId, q.livemode ? 1 : 0, q.currency, q.fromMs, q.toMs, q.limit];
      const sql = q.after ? (q.inclusive ? STATEMENT_FROM : STATEMENT_AFTER) : STATEMENT_FIRST;
      if (q.after) args.push(q.after.createdAt, q.after.id);
      return ctx.stmt(sql).all(...args) as StatementEntry[];
    },

    async statementPosition(accountId, livemode, entryId) {
      return (
        (ctx.stmt(STATEMENT_POSITION).get(entryId, accountId, livemode ? 1 : 0) as {
          createdAt: number;
          id: string;
          currency: string;
        } | null) ?? undefined
      );
    },

    async statementTotalAt(accountId, livemode, currency, at) {
      const mode = livemode ? 1 : 0;
      const span = ctx.stmt(STATEMENT_SPAN).get(accountId, mode, currency) as {
        first: number | null;
        last: number | null;
      };
      if (span.first === null || span.last === null) return 0;
      // Sum whichever side of the position is shorter in time (the span only picks the side; the sum is one statement).
      const sql = at.createdAt - span.first < span.last - at.createdAt ? STATEMENT_TOTAL_UPTO : STATEMENT_TOTAL_AT;
      return (ctx.stmt(sql).get(accountId, mode, currency, at.createdAt, at.id ?? null) as { total: number }).total;
    },
  };
}
