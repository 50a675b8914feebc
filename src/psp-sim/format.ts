/**
 * psp-sim value formats of the BCB API Pix v2 (OpenAPI 2.9.0, components/schemas): amounts as
 * strings `\d{1,10}\.\d{2}` (reais), RFC 3339 instants, txid / e2eid / devolução id patterns.
 * The OpenAPI patterns are unanchored; the simulator anchors them (the intent of the standard).
 */

/** `CobValor.original`, `Pix.valor`, `Devolucao.valor`: reais with exactly two decimals. */
export const VALOR_RE = /^\d{1,10}\.\d{2}$/;
/** `TxId` of a cob path (`[a-zA-Z0-9]{26,35}`): the one Cofre's Pix ids module already checks. */
export { TXID_RE } from "../pix/ids";
/** `TxId` as a `GET /pix` filter and in `Pix.txid` (`[a-zA-Z0-9]{1,35}`, static QR codes). */
export const TXID_FILTER_RE = /^[a-zA-Z0-9]{1,35}$/;
/** `EndToEndId` and `Devolucao.rtrId` (32 alphanumerics). */
export const E2E_RE = /^[a-zA-Z0-9]{32}$/;
/** `DevolucaoId` (`[a-zA-Z0-9]{1,35}`, chosen by the client). */
export const DEVOLUCAO_ID_RE = /^[a-zA-Z0-9]{1,35}$/;
/** `PessoaFisica.cpf` (11 digits) and `PessoaJuridica.cnpj` (14, alphanumeric since 2026). */
export const CPF_RE = /^\d{11}$/;
export const CNPJ_RE = /^[0-9A-Z]{14}$/;
const RFC3339_RE = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** "12.34" -> 1234 centavos; null when the text does not match `VALOR_RE`. */
export function parseValor(text: unknown): number | null {
  if (typeof text !== "string" || !VALOR_RE.test(text)) return null;
  const [reais, cents] = text.split(".") as [string, string];
  return Number(reais) * 100 + Number(cents);
}

/** 1234 centavos -> "12.34" (0 -> "0.00"). */
export function formatValor(centavos: number): string {
  const s = String(centavos).padStart(3, "0");
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** An RFC 3339 date-time -> epoch ms; null when malformed (date-only or no offset is refused). */
export function parseRfc3339(text: unknown): number | null {
  if (typeof text !== "string" || !RFC3339_RE.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

/** Epoch ms -> RFC 3339 UTC with milliseconds (`2026-11-20T12:00:00.000Z`). */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `parametros.paginacao` of a list answer (`Paginacao`): page `pagina` of `total` items, `porPagina` a page. */
export function paginacao(pagina: number, porPagina: number, total: number) {
  return {
    paginaAtual: pagina,
    itensPorPagina: porPagina,
    quantidadeDePaginas: Math.max(1, Math.ceil(total / porPagina)),
    quantidadeTotalDeItens: total,
  };
}
