/** Small helpers shared by the receipt and boleto PDFs (pdf-lib standard fonts are WinAnsi only). */

/** Text drawable with a standard font: Latin-1 kept, other characters folded or replaced by "?". */
export function winAnsi(s: string): string {
  return [...s.normalize("NFC")]
    .map((ch) => {
      const c = ch.codePointAt(0)!;
      if (c === 0x20ac) return ch;
      if (c < 0x20) return " ";
      if (c <= 0xff && !(c >= 0x7f && c < 0xa0)) return ch;
      const folded = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
      return folded.length === 1 && folded.codePointAt(0)! < 0x7f ? folded : "?";
    })
    .join("");
}

/** `BRL 1,234.56`-style amount of minor units (2 decimals). */
export function formatAmount(minor: number, currency: string): string {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  return `${currency} ${sign}${whole}.${String(abs % 100).padStart(2, "0")}`;
}

/** `2026-11-20 12:00:00 UTC` of epoch ms. */
export function formatUtc(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").replace(/\.\d{3}Z$/, " UTC");
}
