/** SQLite implementation of the ledger repository (src/store/port/ledger.ts): journal, balances, tranches. */
import { and, eq, isNull, sql } from "drizzle-orm";
import { ledgerBalances, ledgerEntries, ledgerLines, ledgerTranches } from "../../../db/schema";
import type { LedgerRepo, MerchantBalance } from "../port/ledger";
import type { SqliteContext } from "./context";
import { ledgerScan } from "./ledger-scan";

/** The merchant-owned ledger accounts (src/domain/ledger/post.ts MERCHANT_ACCOUNTS). */
const MERCHANT = "ledger_account in ('available', 'pending', 'retained')";
const OPEN_TRANCHE = "account_id = ?1 and livemode = ?2 and currency = ?3 and released_at is null and remaining > 0";
/** Wallet reads: raw statements prepared once per connection (drizzle's query building cost ~20x the queries). */
const BALANCE_ROWS = `select ledger_account, balance from ledger_balances where account_id = ?1 and livemode = ?2 and currency = ?3 and ${MERCHANT}`;
const NEXT_RELEASE = `select release_at as at, sum(remaining) as sum from ledger_tranches where ${OPEN_TRANCHE} group by release_at order by release_at asc limit 1`;
const CURRENCIES = `select distinct currency from ledger_balances where account_id = ?1 and livemode = ?2 and ${MERCHANT} order by currency`;

/** Builds the ledger repository on the adapter's connection `ctx`. */
export function ledgerRepo(ctx: SqliteContext): LedgerRepo {
  const { db } = ctx;
  return {
    async entryByKey(key) {
      return db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, key)).get();
    },

    async entryLines(entryId) {
      return db.select().from(ledgerLines).where(eq(ledgerLines.entryId, entryId)).orderBy(ledgerLines.id).all();
    },

    async accountBalance(accountId, livemode, currency, ledgerAccount) {
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
    },

    async post(e) {
      db.insert(ledgerEntries)
        .values({
          id: e.id,
          accountId: e.accountId,
          livemode: e.livemode,
          currency: e.currency,
          kind: e.kind,
          causeKind: e.causeKind,
          causeId: e.causeId,
          idempotencyKey: e.idempotencyKey,
          meta: e.meta,
          createdAt: e.now,
        })
        .run();
      const after: number[] = [];
      for (const l of e.lines) {
        db.insert(ledgerLines)
          .values({ entryId: e.id, accountId: e.accountId, livemode: e.livemode, currency: e.currency, ledgerAccount: l.ledgerAccount, amount: l.amount, trancheId: l.trancheId })
          .run();
        const row = db
          .insert(ledgerBalances)
          .values({ accountId: e.accountId, livemode: e.livemode, currency: e.currency, ledgerAccount: l.ledgerAccount, balance: l.amount, updatedAt: e.now })
          .onConflictDoUpdate({
            target: [ledgerBalances.accountId, ledgerBalances.livemode, ledgerBalances.currency, ledgerBalances.ledgerAccount, ledgerBalances.shard],
            set: { balance: sql`${ledgerBalances.balance} + excluded.balance`, updatedAt: e.now },
          })
          .returning({ balance: ledgerBalances.balance })
          .get();
        after.push(row!.balance);
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
