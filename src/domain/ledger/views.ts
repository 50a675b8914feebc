/**
 * Allowlist views of the wallet endpoints (interface.md "Wallet balance", "Wallets"): amounts in
 * minor units, timestamps ISO 8601 UTC. Also the currency rule of the `currency` query.
 */
import { iso } from "../../lib/clock";
import { getBalance, listCurrencies } from "./balances";
import type { LedgerReader } from "./unit";
import type { Balance } from "./index";
import { Currency, DateTime, Money, Nullable, Type, View, type Static } from "../../lib/view-schema";

/** The primary currency of every account (interface.md: default BRL). */
export const PRIMARY_CURRENCY = "BRL";

/** `{currency, available, pending, total}` of one currency (minor units). */
export const BalanceItemSchema = View("BalanceItem", {
  currency: Currency(),
  available: Money(),
  pending: Money(),
  total: Money(),
});

/** GET /v1/wallets/balance without `currency`: the primary currency flat, plus every currency. */
export const FullBalanceSchema = View("Balance", {
  available: Money({ description: "Withdrawable now (minor units)." }),
  pending: Money({ description: "Paid but not yet released (minor units)." }),
  total: Money(),
  retained: Money({ description: "Held by open MED cases (minor units)." }),
  currency: Type.Literal(PRIMARY_CURRENCY),
  next_release_at: Nullable(DateTime()),
  next_release_amount: Nullable(Money()),
  balances: Type.Array(BalanceItemSchema),
  primary: BalanceItemSchema,
});

/** GET /v1/wallets/balance?currency=XXX: one currency, flat. */
export const FlatBalanceSchema = View("CurrencyBalance", {
  available: Money(),
  pending: Money(),
  currency: Currency(),
  next_release_at: Nullable(DateTime()),
  next_release_amount: Nullable(Money()),
});

/** One OPERATIONAL wallet of GET /v1/wallets. */
export const WalletSchema = View("Wallet", {
  currency: Currency(),
  walletType: Type.Literal("OPERATIONAL"),
  balance: Money({ description: "Available (minor units)." }),
  pendingBalance: Money(),
});

const ISO_4217 = new Set(Intl.supportedValuesOf("currency"));

/**
 * Normalises a currency code (case-insensitive, three letters, known to ISO 4217) to upper case,
 * or returns null when it is malformed or unknown.
 */
export function parseCurrency(raw: string): string | null {
  if (!/^[A-Za-z]{3}$/.test(raw)) return null;
  const code = raw.toUpperCase();
  return ISO_4217.has(code) ? code : null;
}

/**
 * Currency of a wallet query: a known ISO 4217 code (parseCurrency), or any other code the
 * payments group accepts (3-8 letters or digits, e.g. `USDT`) that the account holds a balance in
 * for this mode. Upper case, or null when neither.
 */
export async function walletCurrency(
  reader: LedgerReader,
  accountId: string,
  livemode: boolean,
  raw: string,
): Promise<string | null> {
  const iso4217 = parseCurrency(raw);
  if (iso4217) return iso4217;
  if (!/^[A-Za-z0-9]{3,8}$/.test(raw)) return null;
  const code = raw.toUpperCase();
  return (await listCurrencies(reader, accountId, livemode)).includes(code) ? code : null;
}

/** `{currency, available, pending, total}` of one currency. */
export function balanceItem(currency: string, b: Balance): Static<typeof BalanceItemSchema> {
  return { currency, available: b.available, pending: b.pending, total: b.available + b.pending };
}

/**
 * Full shape of GET /v1/wallets/balance (no `currency` query). `reader`: `deps.store.read`.
 * One read whatever the number of currencies.
 */
export async function fullBalanceView(
  reader: LedgerReader,
  accountId: string,
  livemode: boolean,
): Promise<Static<typeof FullBalanceSchema>> {
  // One read (one await) for the currencies and their balances: the route's hot path.
  const items = (await reader.ledger.merchantBalanceSheet(accountId, livemode, PRIMARY_CURRENCY)).map(
    ({ currency, balance }) => ({ c: currency, b: balance }),
  );
  const { b: p } = items[0]!;
  const primary = balanceItem(PRIMARY_CURRENCY, p);
  return {
    available: p.available,
    pending: p.pending,
    total: p.available + p.pending,
    retained: p.retained,
    currency: PRIMARY_CURRENCY,
    next_release_at: p.nextReleaseAt === null ? null : iso(p.nextReleaseAt),
    next_release_amount: p.nextReleaseAmount,
    balances: items.map(({ c, b }) => balanceItem(c, b)),
    primary,
  };
}

/** Flat single-currency shape of GET /v1/wallets/balance?currency=XXX. `reader`: `deps.store.read`. */
export async function flatBalanceView(
  reader: LedgerReader,
  accountId: string,
  livemode: boolean,
  currency: string,
): Promise<Static<typeof FlatBalanceSchema>> {
  const b = await getBalance(reader, accountId, livemode, currency);
  return {
    available: b.available,
    pending: b.pending,
    currency,
    next_release_at: b.nextReleaseAt === null ? null : iso(b.nextReleaseAt),
    next_release_amount: b.nextReleaseAmount,
  };
}

/** GET /v1/wallets: one OPERATIONAL wallet per currency (primary first). `reader`: `deps.store.read`. */
export async function walletListView(
  reader: LedgerReader,
  accountId: string,
  livemode: boolean,
): Promise<Static<typeof WalletSchema>[]> {
  const sheet = await reader.ledger.merchantBalanceSheet(accountId, livemode, PRIMARY_CURRENCY);
  return sheet.map(({ currency, balance: b }) => ({
    currency,
    walletType: "OPERATIONAL" as const,
    balance: b.available,
    pendingBalance: b.pending,
  }));
}
