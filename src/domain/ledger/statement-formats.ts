/**
 * The statement's export formats (extensions.md "Statement, exports and reconciliation"): CSV
 * (RFC 4180, CRLF, a header row) and OFX 1.0.2 SGML as Brazilian banks emit it, each as pure
 * renderers of a head, one page of lines and a tail (src/domain/ledger/statement.ts streams
 * them), and the documentation examples rendered by the same functions, so they cannot drift.
 */
import { STATS_TIME_ZONE } from "../../lib/calendar";
import { decimalOfMinor } from "../../lib/money";
import type { Scope } from "../scope";
import type { StatementLine } from "./statement-views";

const CSV_COLUMNS = [
  "id",
  "created_at",
  "type",
  "amount",
  "balance_after",
  "available_on",
  "description",
  "reference_id",
] as const;

/** One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF (quotes doubled). */
function csvField(v: string | number | null): string {
  const s = v === null ? "" : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The CSV header row. */
export const csvHead = (): string => `${CSV_COLUMNS.join(",")}\r\n`;

/** One page of lines as CSV rows. */
export function csvLines(page: StatementLine[]): string {
  return page.map((l) => `${CSV_COLUMNS.map((c) => csvField(l[c])).join(",")}\r\n`).join("");
}

/** Centavos as reais with a dot and two decimals (`-1500` -> `-15.00`; src/lib/money.ts). */
export const reais = decimalOfMinor;

const SP_PARTS = new Intl.DateTimeFormat("en-GB", {
  timeZone: STATS_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});
/** São Paulo's UTC offset (ms) per UTC hour: Intl is slow per call, and offsets change on the hour at most. */
const offsets = new Map<number, number>();

function offsetMs(ms: number): number {
  const hour = Math.floor(ms / 3_600_000);
  let off = offsets.get(hour);
  if (off === undefined) {
    const at = hour * 3_600_000;
    const p = Object.fromEntries(SP_PARTS.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
    off =
      Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) -
      at;
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(hour, off);
  }
  return off;
}

const two = (n: number) => String(n).padStart(2, "0");

/** OFX date-time in São Paulo local time with its offset, as Brazilian banks write it: `20261128093000[-3:BRT]`. */
export function ofxDate(ms: number): string {
  const off = offsetMs(ms);
  const d = new Date(ms + off);
  const hours = Math.round(off / 3_600_000);
  const local = `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
  return `${local}[${hours}:${hours === -3 ? "BRT" : hours === -2 ? "BRST" : "GMT"}]`;
}

/** Text for an SGML element: ASCII (accents folded, the header says USASCII), `&`, `<`, `>` escaped, at most `max` characters. */
function sgml(s: string, max = 255): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "?")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .slice(0, max);
}

/** What the OFX head and tail say besides the lines. */
export interface OfxFacts {
  scope: Scope;
  now: number;
  startMs: number;
  endMs: number;
  /** The wallet's total at `endMs`, centavos. */
  ledgerBalance: number;
}

/**
 * OFX 1.0.2 SGML (the header block, then unclosed leaf elements) as Brazilian banks emit it:
 * one STMTTRN per line (`TRNTYPE` CREDIT/DEBIT, `DTPOSTED`, `TRNAMT` in reais, `FITID` = the line
 * id, so a re-import never duplicates, `MEMO` = description and reference), then LEDGERBAL.
 * ACCTID: the last 20 characters of the account's raw id (its random part) and `-T`/`-L` for the
 * mode (OFX allows 22).
 */
export function ofxHead(f: OfxFacts): string {
  const acct = `${f.scope.accountId.replace(/^acct_/, "").slice(-20)}-${f.scope.livemode ? "L" : "T"}`;
  const start = ofxDate(Math.max(0, f.startMs));
  return [
    "OFXHEADER:100",
    "DATA:OFXSGML",
    "VERSION:102",
    "SECURITY:NONE",
    "ENCODING:USASCII",
    "CHARSET:1252",
    "COMPRESSION:NONE",
    "OLDFILEUID:NONE",
    "NEWFILEUID:NONE",
    "",
    "<OFX>",
    "<SIGNONMSGSRSV1>",
    "<SONRS>",
    "<STATUS>",
    "<CODE>0",
    "<SEVERITY>INFO",
    "</STATUS>",
    `<DTSERVER>${ofxDate(f.now)}`,
    "<LANGUAGE>POR",
    "</SONRS>",
    "</SIGNONMSGSRSV1>",
    "<BANKMSGSRSV1>",
    "<STMTTRNRS>",
    "<TRNUID>1",
    "<STATUS>",
    "<CODE>0",
    "<SEVERITY>INFO",
    "</STATUS>",
    "<STMTRS>",
    "<CURDEF>BRL",
    "<BANKACCTFROM>",
    "<BANKID>COFRE",
    `<ACCTID>${acct}`,
    "<ACCTTYPE>CHECKING",
    "</BANKACCTFROM>",
    "<BANKTRANLIST>",
    `<DTSTART>${start}`,
    `<DTEND>${ofxDate(f.endMs)}`,
    "",
  ].join("\r\n");
}

/** One page of lines as STMTTRN elements. */
export function ofxLines(page: StatementLine[]): string {
  return page
    .map((l) =>
      [
        "<STMTTRN>",
        `<TRNTYPE>${l.amount < 0 ? "DEBIT" : "CREDIT"}`,
        `<DTPOSTED>${ofxDate(Date.parse(l.created_at))}`,
        `<TRNAMT>${reais(l.amount)}`,
        `<FITID>${l.id}`,
        `<MEMO>${sgml(l.reference_id ? `${l.description} ${l.reference_id}` : l.description)}`,
        "</STMTTRN>",
        "",
      ].join("\r\n"),
    )
    .join("");
}

/** LEDGERBAL and the closing elements. */
export function ofxTail(f: OfxFacts): string {
  return [
    "</BANKTRANLIST>",
    "<LEDGERBAL>",
    `<BALAMT>${reais(f.ledgerBalance)}`,
    `<DTASOF>${ofxDate(f.endMs)}`,
    "</LEDGERBAL>",
    "</STMTRS>",
    "</STMTTRNRS>",
    "</BANKMSGSRSV1>",
    "</OFX>",
    "",
  ].join("\r\n");
}

/** Documentation examples: a charge of R$ 150.00 and its R$ 1.99 fee, as each format writes them. */
const EXAMPLE_LINES: StatementLine[] = [
  {
    id: "sl_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a_1",
    created_at: "2026-11-20T12:00:00.000Z",
    type: "fee",
    amount: -199,
    balance_after: 14801,
    available_on: "2026-11-21T12:00:00.000Z",
    description: "Tarifa",
    reference_id: "0193a6f2c1d87c4e9b1a2f3e4d5c6b7b",
  },
  {
    id: "sl_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a_0",
    created_at: "2026-11-20T12:00:00.000Z",
    type: "charge",
    amount: 15000,
    balance_after: 15000,
    available_on: "2026-11-21T12:00:00.000Z",
    description: "Recebimento",
    reference_id: "0193a6f2c1d87c4e9b1a2f3e4d5c6b7b",
  },
];
const EXAMPLE_FACTS: OfxFacts = {
  scope: { accountId: "acct_0193a6f2c1d87c4e9b1a2f3e4d5c6", livemode: false },
  now: Date.parse("2026-11-21T12:00:00.000Z"),
  startMs: Date.parse("2026-11-20T03:00:00.000Z"),
  endMs: Date.parse("2026-11-21T02:59:59.999Z"),
  ledgerBalance: 14801,
};

/** The CSV and OFX examples of `GET /v1/wallets/statement`'s documentation. */
export const STATEMENT_EXPORT_EXAMPLES = {
  csv: csvHead() + csvLines(EXAMPLE_LINES),
  ofx: ofxHead(EXAMPLE_FACTS) + ofxLines(EXAMPLE_LINES) + ofxTail(EXAMPLE_FACTS),
};
