/** Money and dates as a Brazilian merchant reads them: R$ 1.234,56 and America/Sao_Paulo time. */
import { lang } from "./i18n";

const TZ = "America/Sao_Paulo";

/** `amount` in minor units (centavos) of `currency`, e.g. 123456 BRL -> "R$ 1.234,56". */
export function money(amount: number, currency = "BRL"): string {
  const code = /^[A-Z]{3}$/.test(currency) ? currency : "BRL";
  const text = new Intl.NumberFormat(lang() === "en" ? "en-US" : "pt-BR", { style: "currency", currency: code }).format(
    amount / 100,
  );
  return code === currency ? text.replace(/\u00a0/g, " ") : `${text} ${currency}`;
}

/** An ISO timestamp in São Paulo time (dd/mm/aaaa hh:mm in pt-BR). */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(lang() === "en" ? "en-US" : "pt-BR", {
    timeZone: TZ,
    dateStyle: "short",
    timeStyle: "short",
  }).format(new Date(iso));
}

/** Today's calendar date in São Paulo as YYYY-MM-DD. */
export function todaySaoPaulo(): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: TZ }).format(new Date());
}

/** A duration in seconds, short ("2 min 5 s"). */
export function duration(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/**
 * An amount typed the Brazilian way, in reais ("1.234,56", "R$ 10,5", "7"; also "12.34"), as
 * integer centavos, exactly (digit strings, no floating point); null when it is not a positive
 * amount with at most two decimals or does not fit a safe integer.
 */
export function parseAmount(text: string): number | null {
  const clean = text.trim().replace(/\s|R\$/g, "");
  let whole: string;
  let frac: string;
  let m: RegExpExecArray | null;
  if ((m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(clean)))
    [whole, frac] = [m[1]!, m[2] ?? ""]; // 12.34
  else if ((m = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(clean)))
    [whole, frac] = [m[1]!.replace(/\./g, ""), m[2] ?? ""]; // 1.234,56
  else return null;
  const cents = BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0"));
  return cents > 0n && cents <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(cents) : null;
}
