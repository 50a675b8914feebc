/**
 * The wallet statement (extensions.md "Statement, exports and reconciliation"; issue 27 §1):
 * `GET /v1/wallets/statement` as JSON pages, CSV or OFX. Read from the ledger journal, never
 * recomputed from payments: every entry that moves the merchant's `available` + `pending` (the
 * wallet's `total`) or carries a platform fee becomes one or two lines, by the posting's kind
 * (src/domain/ledger/service.ts, payouts.ts):
 *   charge_payment  -> charge (+gross) and fee (-fee)          refund          -> refund (-amount) and fee (-Pix-out
 * fee)
 *   refund_restore  -> refund_reversal (+amount + fee)         payout          -> payout (-amount) and payout_fee
 * (-fee)
 *   payout_reversal -> payout_reversal (+amount + fee)         med_hold        -> med_hold (-held)
 *   med_settle refunded_to_merchant -> med_release (+held)
 * A tranche release (pending -> available), a paid payout (in transit -> payee) and a lost MED
 * hold (retained -> payer) do not change the total: no line. The lines of one entry add up to
 * the entry's change of the total, so the lines of any period add up to the change of `total`
 * over it. Amounts signed, minor units (centavos); times epoch ms in, ISO 8601 UTC out.
 *
 * `balance_after` is not stored: the first line of a read is the materialised total minus the
 * wallet lines of the entries after it (one indexed sum, empty for the newest page), and every
 * further line subtracts the amounts above it. A stored running total per line would make every
 * credit of one merchant wait on one row on PostgreSQL, which the sharded balances exist to avoid
 * (src/store/pg/ledger.ts); the sum costs one index range over the entries newer than the page.
 * Exports stream: a ReadableStream pulls one page of entries from the store at a time.
 */
import type { Deps } from "../deps";
import { iso } from "../../lib/clock";
import { endOfSaoPauloDay, saoPauloDate, startOfSaoPauloDay } from "../../lib/calendar";
import type { StatementEntry, StatementPosition } from "../../store/port/ledger";
import { invalidParam } from "../errors";
import type { Scope } from "../scope";
import type { LedgerReader } from "./unit";
import { PRIMARY_CURRENCY } from "./views";
import type { StatementLine, StatementLineType, StatementList } from "./statement-views";
import { csvHead, csvLines, type OfxFacts, ofxHead, ofxLines, ofxTail } from "./statement-formats";

/** Query parameters of GET /v1/wallets/statement. */
const PARAMS = new Set(["from", "to", "limit", "starting_after"]);
/** Entries read per store page while exporting. */
const EXPORT_PAGE = 500;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LINE_ID = /^sl_([0-9a-f]{32})_([01])$/;

/** The two types of an entry kind: its movement, and its fee (or the same type when it has none). */
const TYPES: Record<string, readonly [StatementLineType, StatementLineType]> = {
  charge_payment: ["charge", "fee"],
  refund: ["refund", "fee"],
  refund_restore: ["refund_reversal", "refund_reversal"],
  payout: ["payout", "payout_fee"],
  payout_reversal: ["payout_reversal", "payout_reversal"],
  med_hold: ["med_hold", "med_hold"],
  med_settle: ["med_release", "med_release"],
};
/** Kinds that give a debit back whole (its fee included): one line. */
const REVERSALS = new Set(["refund_restore", "payout_reversal"]);

/** Description of each line type (pt-BR: the extrato goes to Brazilian accountants). */
export const STATEMENT_DESCRIPTIONS: Record<StatementLineType, string> = {
  charge: "Recebimento",
  fee: "Tarifa",
  refund: "Devolução",
  refund_reversal: "Estorno de devolução",
  payout: "Saque",
  payout_fee: "Tarifa de saque",
  payout_reversal: "Estorno de saque",
  med_hold: "Bloqueio MED",
  med_release: "Liberação MED",
};

/** Export formats (`Accept: text/csv` / `application/x-ofx`). */
export type StatementFormat = "csv" | "ofx";

/** A parsed statement request: São Paulo days as inclusive epoch-ms bounds. */
export interface StatementRequest {
  from: string | null;
  to: string | null;
  fromMs: number;
  toMs: number;
  limit: number;
  /** The cursor line id and where reading resumes. */
  cursor?: { lineId: string; position: StatementPosition; inclusive: boolean };
}

/** The type of an entry's line (`fee`: its fee line), by kind, else by cause and sign. */
function typeOf(e: StatementEntry, fee: boolean, amount: number): StatementLineType {
  const known = TYPES[e.kind];
  if (known) return known[fee ? 1 : 0];
  if (e.causeKind === "med_case") return amount < 0 ? "med_hold" : "med_release";
  if (e.causeKind === "payout") return fee ? "payout_fee" : amount < 0 ? "payout" : "payout_reversal";
  if (e.causeKind === "refund") return fee ? "fee" : amount < 0 ? "refund" : "refund_reversal";
  return fee ? "fee" : "charge";
}

/**
 * The lines of entry `e`, newest first (its fee after its movement), given `balance` = the
 * wallet's total right after the entry. Their amounts add up to `e.total`.
 */
export function entryLines(e: StatementEntry, balance: number): StatementLine[] {
  const raw = e.id.startsWith("je_") ? e.id.slice(3) : e.id;
  const feeAmount = REVERSALS.has(e.kind) ? 0 : -e.fee;
  const movement = e.total - feeAmount;
  const createdAt = iso(e.createdAt);
  const availableOn = iso(Math.max(e.createdAt, e.releaseAt ?? e.createdAt));
  const out: StatementLine[] = [];
  const line = (part: 0 | 1, amount: number, after: number): StatementLine => {
    const type = typeOf(e, part === 1, amount);
    return {
      id: `sl_${raw}_${part}`,
      created_at: createdAt,
      type,
      amount,
      balance_after: after,
      available_on: availableOn,
      description: STATEMENT_DESCRIPTIONS[type],
      reference_id: e.causeId || null,
    };
  };
  if (feeAmount !== 0) out.push(line(1, feeAmount, balance));
  if (movement !== 0) out.push(line(0, movement, balance - feeAmount));
  return out;
}

/** `value` when it is a real date (`YYYY-MM-DD`), else 400 naming `param`. */
function day(param: string, value: string): string {
  const ms = DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  const ok = !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
  if (!ok) throw invalidParam(param, `${param} must be a date (YYYY-MM-DD, a São Paulo day).`);
  return value;
}

/**
 * Validates the query of GET /v1/wallets/statement for `scope` (400 `invalid_request` naming the
 * parameter; a cursor that is not one of the caller's lines -> 400 `invalid_cursor`). Exports
 * answer the whole period, so `limit` and `starting_after` are refused with them.
 */
export async function parseStatementQuery(
  deps: Deps,
  scope: Scope,
  query: Record<string, string>,
  format?: StatementFormat,
): Promise<StatementRequest> {
  for (const k of Object.keys(query)) {
    if (k === "page" || k === "offset")
      throw invalidParam(k, `${k} is not accepted; paginate with starting_after (cursor).`);
    if (!PARAMS.has(k)) throw invalidParam(k, `Unknown query parameter ${k}.`);
    if (format && (k === "limit" || k === "starting_after"))
      throw invalidParam(k, `${k} does not apply to an export: it answers the whole period.`);
  }
  const from = query.from === undefined ? null : day("from", query.from);
  const to = query.to === undefined ? null : day("to", query.to);
  if (from && to && from > to) throw invalidParam("from", "from must not be after to.");
  let limit = 25;
  if (query.limit !== undefined) {
    if (!/^\d{1,3}$/.test(query.limit) || Number(query.limit) < 1 || Number(query.limit) > 100)
      throw invalidParam("limit", "limit must be an integer from 1 to 100.");
    limit = Number(query.limit);
  }
  const req: StatementRequest = {
    from,
    to,
    fromMs: from ? startOfSaoPauloDay(from) : 0,
    toMs: to ? endOfSaoPauloDay(to) : Number.MAX_SAFE_INTEGER,
    limit,
  };
  if (query.starting_after !== undefined) {
    const m = LINE_ID.exec(query.starting_after);
    const position = m
      ? await deps.store.read.ledger.statementPosition(scope.accountId, scope.livemode, `je_${m[1]}`)
      : undefined;
    if (!m || !position || position.currency !== PRIMARY_CURRENCY)
      throw invalidParam(
        "starting_after",
        "starting_after must be the id (sl_...) of one of your statement lines.",
        "invalid_cursor",
      );
    // After a fee line (`_1`) comes the movement of the same entry; after a movement, older entries.
    req.cursor = {
      lineId: query.starting_after,
      position: { createdAt: position.createdAt, id: position.id },
      inclusive: m[2] === "1",
    };
  }
  return req;
}

/**
 * The statement's lines of `scope` in `req`'s period from its cursor on, newest first, one store
 * page (`pageSize` entries) at a time: each yielded array is one page's lines.
 */
async function* statementPages(
  reader: LedgerReader,
  scope: Scope,
  req: StatementRequest,
  pageSize: number,
): AsyncGenerator<StatementLine[]> {
  const base = {
    accountId: scope.accountId,
    livemode: scope.livemode,
    currency: PRIMARY_CURRENCY,
    fromMs: req.fromMs,
    toMs: req.toMs,
    limit: pageSize,
  };
  let after = req.cursor?.position;
  let inclusive = req.cursor?.inclusive ?? false;
  // Resuming inside an entry (after its fee line): only its lines below the cursor remain.
  const resumeIn = req.cursor?.inclusive ? req.cursor.position.id : undefined;
  let balance: number | undefined;
  for (;;) {
    const entries = await reader.ledger.statementEntries({ ...base, after, inclusive });
    if (entries.length === 0) return;
    balance ??= await reader.ledger.statementTotalAt(scope.accountId, scope.livemode, PRIMARY_CURRENCY, entries[0]!);
    const page: StatementLine[] = [];
    for (const e of entries) {
      for (const l of entryLines(e, balance)) if (e.id !== resumeIn || l.id.endsWith("_0")) page.push(l);
      balance -= e.total;
    }
    if (page.length) yield page;
    if (entries.length < pageSize) return;
    const last = entries[entries.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
    inclusive = false;
  }
}

/** One page of the statement (JSON): `{object: "list", data, has_more, next_cursor}`, newest first. */
export async function listStatement(deps: Deps, scope: Scope, req: StatementRequest): Promise<StatementList> {
  const lines: StatementLine[] = [];
  // Every entry gives one line or more, so limit + 1 entries always hold limit + 1 lines when there are that many.
  for await (const page of statementPages(deps.store.read, scope, req, req.limit + 1)) {
    lines.push(...page);
    break;
  }
  const hasMore = lines.length > req.limit;
  const data = lines.slice(0, req.limit);
  return { object: "list", data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.id : null };
}

/** A streamed export: the body, its media type and a file name. */
export interface StatementExport {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  filename: string;
}

/**
 * The whole period of `req` as CSV (RFC 4180, UTF-8, CRLF, a header row; the JSON fields, amounts
 * in centavos) or OFX 1.0.2 SGML. Nothing is read until the stream is pulled; each pull reads one
 * page of entries, so memory stays flat whatever the period's size.
 */
export async function exportStatement(
  deps: Deps,
  scope: Scope,
  req: StatementRequest,
  format: StatementFormat,
): Promise<StatementExport> {
  const now = deps.clock.nowMs();
  const name = `extrato-${req.from ?? "inicio"}-${req.to ?? saoPauloDate(now)}`;
  const pages = statementPages(deps.store.read, scope, req, EXPORT_PAGE);
  if (format === "csv")
    return {
      body: streamOf(chunks(pages, csvHead(), csvLines, () => "")),
      contentType: "text/csv; charset=utf-8",
      filename: `${name}.csv`,
    };
  // LEDGERBAL: the total at the end of the period (or now), read before the lines.
  const asOf = Math.min(req.toMs, now);
  const ledgerBalance = await deps.store.read.ledger.statementTotalAt(
    scope.accountId,
    scope.livemode,
    PRIMARY_CURRENCY,
    { createdAt: asOf },
  );
  const facts: OfxFacts = { scope, now, startMs: req.fromMs, endMs: asOf, ledgerBalance };
  return {
    body: streamOf(chunks(pages, ofxHead(facts), ofxLines, () => ofxTail(facts))),
    contentType: "application/x-ofx",
    filename: `${name}.ofx`,
  };
}

/** `head`, then each page of `pages` rendered by `lines`, then `tail()`: one chunk each. */
async function* chunks(
  pages: AsyncGenerator<StatementLine[]>,
  head: string,
  lines: (page: StatementLine[]) => string,
  tail: () => string,
): AsyncGenerator<string> {
  yield head;
  for await (const page of pages) yield lines(page);
  const end = tail();
  if (end) yield end;
}

/** A byte stream pulling one string chunk from `chunks` per read; cancelling ends the generator. */
function streamOf(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(enc.encode(value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
