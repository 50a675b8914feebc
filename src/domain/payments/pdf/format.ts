/**
 * Brazilian formats of receipts and boletos (extensions.md "Receipts as files"): amounts
 * `R$ 1.234,56`, dates `dd/mm/aaaa`, times in America/Sao_Paulo, CNPJ/CPF punctuation and the
 * masked payer document. Pure functions.
 */
import { STATS_TIME_ZONE } from "../../../lib/calendar";

const SYMBOLS: Record<string, string> = { BRL: "R$", EUR: "€", USD: "US$" };

/**
 * `R$ 1.234,56` of `minor` units (2 decimals; `.` groups thousands, `,` the decimals). BRL is
 * `R$`, EUR `€`, USD `US$`; another currency is prefixed with its ISO code. Negative: `-R$ 1,00`.
 */
export function money(minor: number, currency = "BRL"): string {
  const abs = Math.abs(minor);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  const symbol = SYMBOLS[currency.toUpperCase()] ?? currency.toUpperCase();
  return `${minor < 0 ? "-" : ""}${symbol} ${whole},${String(abs % 100).padStart(2, "0")}`;
}

const PARTS = new Intl.DateTimeFormat("en-US", {
  timeZone: STATS_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

function saoPaulo(ms: number): Record<string, string> {
  return Object.fromEntries(PARTS.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
}

/** `dd/mm/aaaa` of the instant `ms` (epoch milliseconds) in São Paulo. */
export function dateBR(ms: number): string {
  const p = saoPaulo(ms);
  return `${p.day}/${p.month}/${p.year}`;
}

/** `dd/mm/aaaa hh:mm:ss` of the instant `ms` in São Paulo (24-hour clock). */
export function dateTimeBR(ms: number): string {
  const p = saoPaulo(ms);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}:${p.second}`;
}

/** `dd/mm/aaaa` of a calendar date `YYYY-MM-DD` (no time zone involved). */
export function calendarDateBR(date: string): string {
  const [y, m, d] = date.split("-");
  return `${d}/${m}/${y}`;
}

/** `11.222.333/0001-81` (CNPJ, 14 characters) or `529.982.247-25` (CPF, 11 digits); other values as given. */
export function formatTaxId(v: string): string {
  if (/^[0-9A-Z]{12}\d{2}$/.test(v))
    return `${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5, 8)}/${v.slice(8, 12)}-${v.slice(12)}`;
  if (/^\d{11}$/.test(v)) return `${v.slice(0, 3)}.${v.slice(3, 6)}.${v.slice(6, 9)}-${v.slice(9)}`;
  return v;
}

/** "CNPJ" for 14 characters, "CPF" for 11 digits, else "Documento". */
export function taxIdLabel(v: string): string {
  return /^[0-9A-Z]{14}$/.test(v) ? "CNPJ" : /^\d{11}$/.test(v) ? "CPF" : "Documento";
}

/**
 * The payer's document as printed on a receipt: a CPF shows only its middle six digits
 * (`***.982.247-**`, the masking Brazilian banks print on Pix receipts and show in DICT lookups);
 * a CNPJ, a company's public registry number, is shown whole; anything else keeps its last 2
 * characters (`*******89`). Input: the document with or without punctuation.
 */
export function maskTaxId(raw: string): string {
  const v = raw.replace(/[./\-\s]/g, "").toUpperCase();
  if (/^\d{11}$/.test(v)) return `***.${v.slice(3, 6)}.${v.slice(6, 9)}-**`;
  if (/^[0-9A-Z]{12}\d{2}$/.test(v)) return formatTaxId(v);
  return "*".repeat(Math.max(0, v.length - 2)) + v.slice(-2);
}
