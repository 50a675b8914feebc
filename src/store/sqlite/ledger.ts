/** SQLite implementation of the ledger repository (src/store/port/ledger.ts): journal, balances, tranches. */
import { and, eq, isNull } from "drizzle-orm";
import { ledgerLines, ledgerTranches } from "../../../db/schema";
import type { LedgerRepo, MerchantBalance } from "../port/ledger";
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
const ACCOUNT_BALANCE = "select coalesce(sum(balance), 0) as balance from ledger_balances where account_id = ? and livemode = ? and currency = ? and ledger_account = ?";
const INSERT_ENTRY = "insert into ledger_entries (id, account_id, livemode, currency, kind, cause_kind, cause_id, idempotency_key, meta, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
const INSERT_LINE = "insert into ledger_lines (entry_id, account_id, livemode, currency, ledger_account, amount, tranche_id) values (?, ?, ?, ?, ?, ?, ?)";
const ADD_BALANCE = `insert into ledger_balances (account_id, livemode, currency, ledger_account, balance, updated_at) values (?, ?, ?, ?, ?, ?)
  on conflict (account_id, livemode, currency, ledger_account, shard) do update set balance = balance + excluded.balance, updated_at = excluded.updated_at returning balance`;

/** Builds the ledger repository on the adapter's connection `ctx`. */
export function ledgerRepo(ctx: SqliteContext): LedgerRepo {
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
      return (ctx.stmt(ACCOUNT_BALANCE).get(accountId, livemode ? 1 : 0, currency, ledgerAccount) as { balance: number } | null)?.balance ?? 0;
    },

    async post(e) {
      const mode = e.livemode ? 1 : 0;
      ctx.stmt(INSERT_ENTRY).run(e.id, e.accountId, mode, e.currency, e.kind, e.causeKind, e.causeId, e.idempotencyKey, e.meta, e.now);
      const line = ctx.stmt(INSERT_LINE);
      const add = ctx.stmt(ADD_BALANCE);
      const after: number[] = [];
      for (const l of e.lines) {
        line.run(e.id, e.accountId, mode, e.currency, l.ledgerAccount, l.amount, l.trancheId);
        after.push((add.get(e.accountId, mode, e.currency, l.ledgerAccount, l.amount, e.now) as { balance: number }).balance);
      }
      return after;
    },

    async merchantBalances(accountId, livemode, currencies) {
      const rows = ctx.stmt(BALANCE_ROWS);
      const next = ctx.stmt(NEXT_RELEASE);
      const mode = livemode ? 1 : 0;
      return currencies.map((currency): MerchantBalance => {
        const by = new Map((rows.all(accountId, mode, currency) as { ledger_account: string; balance: number }[]).map((r) => [r.ledger_account, r.balance]));
        const n = next.get(accountId, mode, currency) as { at: number; sum: number } | null;
        return {
          available: by.get("available") ?? 0,
          pending: by.get("pending") ?? 0,
          retained: by.get("retained") ?? 0,
          nextReleaseAt: n?.at ?? null,
          nextReleaseAmount: n?.sum ?? null,
        };
      });
    },

    async merchantCurrencies(accountId, livemode) {
      return (ctx.stmt(CURRENCIES).all(accountId, livemode ? 1 : 0) as { currency: string }[]).map((r) => r.currency);
    },

    async trancheOfTransaction(accountId, livemode, transactionId) {
      return db
        .select()
        .from(ledgerTranches)
        .where(and(eq(ledgerTranches.accountId, accountId), eq(ledgerTranches.livemode, livemode), eq(ledgerTranches.transactionId, transactionId)))
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
  };
}
