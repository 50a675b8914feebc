/**
 * Sandbox CRYPTO: a deposit address (TRON-style, derived from the transaction id) and the amount
 * to send, converted at fixed sandbox rates. Crypto currencies (USDT, USDC, BTC, ETH) are asked
 * for as they are; fiat amounts are quoted in USDT on TRON. Amounts are decimal strings.
 */
import { createHash } from "node:crypto";
import type { SandboxMethod } from "./method";
import { methodExpiryColumns } from "./expiry";
import { decimalOfMinor } from "../../lib/money";

/** USD value of one major unit of each fiat currency (sandbox only; fixed). */
const FIAT_USD_MICROS: Record<string, bigint> = { BRL: 190_000n, EUR: 1_080_000n, USD: 1_000_000n, GBP: 1_270_000n };
const NATIVE: Record<string, { network: string; decimals: number }> = {
  USDT: { network: "TRON", decimals: 6 },
  USDC: { network: "ETHEREUM", decimals: 6 },
  BTC: { network: "BITCOIN", decimals: 8 },
  ETH: { network: "ETHEREUM", decimals: 8 },
};
const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Deterministic sandbox address for a transaction on `network`. */
export function sandboxAddress(rawId: string, network: string): string {
  const h = createHash("sha256").update(`cofre-sandbox:${network}:${rawId}`).digest();
  let out = "";
  for (let i = 0; out.length < 33; i++) out += B58[h[i % h.length]! % 58];
  if (network === "BITCOIN")
    return `tb1q${out
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "q")
      .slice(0, 38)}`;
  if (network === "ETHEREUM") return `0x${h.toString("hex").slice(0, 40)}`;
  return `T${out}`;
}

/** Amount to send as a decimal string: minor units of `currency` at sandbox rates. */
export function quote(
  amountMinor: number,
  currency: string,
): { cryptoCurrency: string; network: string; amount: string } {
  const native = Object.hasOwn(NATIVE, currency) ? NATIVE[currency] : undefined;
  if (native) {
    // Minor unit of crypto "currencies" on this API is 1/100 (2 decimals), like fiat.
    return { cryptoCurrency: currency, network: native.network, amount: decimalOfMinor(amountMinor) };
  }
  const usdMicros = (Object.hasOwn(FIAT_USD_MICROS, currency) ? FIAT_USD_MICROS[currency] : undefined) ?? 1_000_000n;
  const micros = (BigInt(amountMinor) * usdMicros) / 100n; // USDT has 6 decimals
  const whole = micros / 1_000_000n;
  const frac = String(micros % 1_000_000n).padStart(6, "0");
  return { cryptoCurrency: "USDT", network: "TRON", amount: `${whole}.${frac}` };
}

/** Lifetime of a crypto quote, seconds. */
export const CRYPTO_TTL_SECONDS = 3600;

export const sandboxCrypto: SandboxMethod = {
  method: "CRYPTO",
  refundable: false,
  prepare(ctx, tx) {
    const q = quote(tx.amount, tx.currency);
    const until = ctx.clock.nowMs() + CRYPTO_TTL_SECONDS * 1000;
    return {
      columns: methodExpiryColumns(tx, until),
      details: {
        address: sandboxAddress(tx.id, q.network),
        amount: q.amount,
        network: q.network,
        currency: q.cryptoCurrency,
        expiresAt: new Date(until).toISOString(),
      },
    };
  },
};
