/**
 * Balance reads for the wallet endpoints: O(1) per currency (three materialised rows plus one
 * indexed lookup of the earliest release time of open tranches and their sum), never a journal
 * scan; the statements are prepared once per connection by the adapter (src/store/sqlite/ledger.ts).
 */
import type { Balance } from "./index";
import type { LedgerReader } from "./unit";

/**
 * Balance of (account, mode, currency), minor units: `available`, `pending`, `retained`, and the
 * earliest unreleased tranche's release time (epoch ms) with the amount releasing then.
 * Zeros and nulls for an account without activity. `reader`: `deps.store.read` or a uow.
 */
export async function getBalance(
  reader: LedgerReader,
  accountId: string,
  livemode: boolean,
  currency: string,
): Promise<Balance> {
  const [b] = await reader.ledger.merchantBalances(accountId, livemode, [currency]);
  return b!;
}

/** Balances of several currencies of (account, mode), in the order given (one read). */
export function getBalances(
  reader: LedgerReader,
  accountId: string,
  livemode: boolean,
  currencies: readonly string[],
): Promise<Balance[]> {
  return reader.ledger.merchantBalances(accountId, livemode, currencies);
}

/** Currencies in which (account, mode) has any merchant balance row, sorted. */
export function listCurrencies(reader: LedgerReader, accountId: string, livemode: boolean): Promise<string[]> {
  return reader.ledger.merchantCurrencies(accountId, livemode);
}
