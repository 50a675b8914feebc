/**
 * Payer-facing formatting of the checkout (issue 13 section 3): HTML escaping, pt-BR amounts
 * (`R$ 1.234,56`), pt-BR dates (`dd/mm/aaaa HH:mm` in America/Sao_Paulo) and clipping of
 * merchant/customer text. Pure functions; dates through the receipts' formatters
 * (src/domain/payments/pdf/format.ts).
 */
import { calendarDateBR, dateTimeBR } from "../../domain/payments/pdf/format";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** HTML-escapes text for element content and quoted attributes (null/undefined -> ""). */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * `R$ 12,34` style amount of `minor` units (centavos for BRL) of ISO 4217 `currency`, in pt-BR
 * (the space after the symbol is a no-break space, U+00A0). An unknown currency -> `12,34 XYZ`.
 */
export function formatMoney(minor: number, currency: string): string {
  try {
    return new Intl.NumberFormat("pt-BR", { style: "currency", currency }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2).replace(".", ",")} ${currency}`;
  }
}

/**
 * `dd/mm/aaaa HH:mm` in America/Sao_Paulo of an instant given as epoch ms or an ISO 8601 string;
 * "" for a missing or unreadable value (the page then shows no date rather than a wrong one).
 */
export function formatDateTime(t: number | string | null | undefined): string {
  const ms = typeof t === "string" ? Date.parse(t) : t;
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "";
  return dateTimeBR(ms).slice(0, "dd/mm/aaaa HH:mm".length);
}

/** `dd/mm/aaaa` of a calendar date `YYYY-MM-DD` (a boleto due date: no time, no time zone); other input as is. */
export function formatDate(date: unknown): string {
  const s = String(date ?? "");
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? calendarDateBR(s) : s;
}

const GRAPHEMES = new Intl.Segmenter("pt-BR", { granularity: "grapheme" });

/**
 * `text` cut to at most `max` graphemes (never inside a surrogate pair or a combined character),
 * ending in "…" when cut; bounds what merchant or customer text can do to the page's layout.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const parts: string[] = [];
  for (const { segment } of GRAPHEMES.segment(text)) {
    if (parts.length === max) return `${parts.slice(0, max - 1).join("")}…`;
    parts.push(segment);
  }
  return text;
}
