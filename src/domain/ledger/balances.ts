/**
 * Balance reads for the wallet endpoints: O(1) per currency (three materialised rows plus one
 * indexed lookup of the earliest release time of open tranches and their sum), never a journal
 * scan. Raw statements prepared once per connection: the wallet routes are hot, and drizzle's
 * per-call query building cost ~20x the queries themselves here.
 */
import type { Database, Statement } from "bun:sqlite";
import type { DbOrTx } from "../../db/client";
import type { Balance } from "./index";
import { MERCHANT_ACCOUNTS } from "./post";

const MERCHANT = `ledger_account in (${MERCHANT_ACCOUNTS.map((a) => `'${a}'`).join(", ")})`;

interface BalanceStatements {
  rows: Statement<{ ledger_account: string; balance: number }>;
  next: Statement<{ at: number; sum: number }>;
  currencies: Statement<{ currency: string }>;
}

const cache = new WeakMap<Database, BalanceStatements>();

/** The prepared statements of `db`'s connection (a Tx shares the Db's connection). */
function statements(db: DbOrTx): BalanceStatements {
  const client = (db as unknown as { $client?: Database; session?: { client: Database } }).$client ?? (db as unknown as { session: { client: Database } }).session.client;
  let s = cache.get(client);
  if (!s) {
    const open = "account_id = ?1 and livemode = ?2 and currency = ?3 and released_at is null and remaining > 0";
    s = {
      rows: client.prepare(`select ledger_account, balance from ledger_balances where account_id = ?1 and livemode = ?2 and currency = ?3 and ${MERCHANT}`),
      next: client.prepare(`select release_at as at, sum(remaining) as sum from ledger_tranches where ${open} group by release_at order by release_at asc limit 1`),
      currencies: client.prepare(`select distinct currency from ledger_balances where account_id = ?1 and livemode = ?2 and ${MERCHANT} order by currency`),
    };
    cache.set(client, s);
  }
  return s;
}

/**
 * Balance of (account, mode, currency), minor units: `available`, `pending`, `retained`, and the
 * earliest unreleased tranche's release time (epoch ms) with the amount releasing then.
 * Zeros and nulls for an account without activity.
 */
export function getBalance(db: DbOrTx, accountId: string, livemode: boolean, currency: string): Balance {
  const s = statements(db);
  const mode = livemode ? 1 : 0;
  const by = new Map(s.rows.all(accountId, mode, currency).map((r) => [r.ledger_account, r.balance]));
  const next = s.next.get(accountId, mode, currency);
  return {
    available: by.get("available") ?? 0,
    pending: by.get("pending") ?? 0,
    retained: by.get("retained") ?? 0,
    nextReleaseAt: next?.at ?? null,
    nextReleaseAmount: next?.sum ?? null,
  };
}

/** Currencies in which (account, mode) has any merchant balance row, sorted. */
export function listCurrencies(db: DbOrTx, accountId: string, livemode: boolean): string[] {
  return statements(db)
    .currencies.all(accountId, livemode ? 1 : 0)
    .map((r) => r.currency);
}
