/**
 * SQLite implementation of the payments repository (src/store/port/payments.ts): the
 * `GET /v1/payments` page and total over `transactions` (indexes in the module notes of
 * src/domain/payments/list.ts), and the legacy events a resend reads.
 */
import { and, asc, desc, eq, getTableColumns, gte, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { events, paymentDailyStats, transactions } from "../../../db/schema";
import type { Db } from "./client";
import type { PaymentListQuery, PaymentSortField, PaymentsRepo } from "../port/payments";
import type { TransactionRow } from "../rows";
import type { SqliteContext } from "./context";

const t = transactions;
const detail = (method: string, key: string) => sql`json_extract(${t.methodDetails}, ${`$.${method}.${key}`})`;

/** Sort key of each sortable field (method fields sort by their stored detail). */
const SORT_SQL: Record<PaymentSortField, SQL> = {
  id: sql`${t.id}`,
  status: sql`${t.status}`,
  amount: sql`${t.amount}`,
  currency: sql`${t.currency}`,
  paymentMethods: sql`${t.paymentMethods}`,
  customerName: sql`${t.customerName}`,
  customerDocument: sql`${t.customerDocument}`,
  customerEmail: sql`${t.customerEmail}`,
  metadata: sql`${t.metadata}`,
  createdAt: sql`${t.createdAt}`,
  paidWith: sql`${t.paidWith}`,
  pixQrCode: sql`${t.pixBrCode}`,
  pixCopyPaste: sql`${t.pixBrCode}`,
  pixExpiresAt: sql`${t.expiresAt}`,
  cardRedirectUrl: sql`${t.id}`,
  mbEntity: detail("MULTIBANCO", "entity"),
  mbReference: detail("MULTIBANCO", "reference"),
  mbExpiresAt: detail("MULTIBANCO", "expiresAt"),
  boletoBarcode: detail("BOLETO", "barcode"),
  boletoLine: detail("BOLETO", "line"),
  boletoPdfUrl: sql`${t.id}`,
  boletoExpiresAt: detail("BOLETO", "expiresAt"),
  cryptoAddress: detail("CRYPTO", "address"),
  cryptoAmount: sql`cast(${detail("CRYPTO", "amount")} as real)`,
  cryptoNetwork: detail("CRYPTO", "network"),
  cryptoCurrency: detail("CRYPTO", "currency"),
  platformFee: sql`${t.platformFee}`,
  paidAt: sql`${t.paidAt}`,
};

/**
 * Total without date filters from the trigger-kept daily aggregates (exact; O(days) instead of
 * counting every row of a large account).
 */
function aggregateTotal(db: Db, q: PaymentListQuery): number {
  const s = paymentDailyStats;
  const conds: SQL[] = [eq(s.accountId, q.accountId), eq(s.livemode, q.livemode)];
  if (q.status) conds.push(eq(s.status, q.status));
  return db
    .select({ n: sql<number>`coalesce(sum(${s.count}), 0)` })
    .from(s)
    .where(and(...conds))
    .get()!.n;
}

/**
 * Total of `paymentMethod` with no other filter, exact and without reading the table: rows paid
 * with it from the daily aggregates (their `method` is `coalesce(paid_with, '')`, kept by the
 * triggers of stats-aggregates.ts), plus the unpaid rows offering it, counted on the covering
 * partial index `tx_account_unpaid_methods_idx` (one short entry per unpaid row, none per paid row).
 */
function methodTotal(db: Db, q: PaymentListQuery & { paymentMethod: string }): number {
  const s = paymentDailyStats;
  const paid = db
    .select({ n: sql<number>`coalesce(sum(${s.count}), 0)` })
    .from(s)
    .where(and(eq(s.accountId, q.accountId), eq(s.livemode, q.livemode), eq(s.method, q.paymentMethod)))
    .get()!.n;
  return paid + unpaidOfferingCount(db, q.accountId, q.livemode, q.paymentMethod).get();
}

/**
 * The count of the scope's unpaid rows offering `method`, on `tx_account_unpaid_methods_idx` only.
 * Unpaid rows carry few distinct `payment_methods` arrays, so it walks the distinct values (one
 * index seek each, a recursive CTE: SQLite has no skip-scan here) and counts the equal-key range of
 * each value holding `method`, instead of testing every unpaid row's array. A query, so that tests
 * can read its plan.
 */
export function unpaidOfferingCount(db: Db, accountId: string, livemode: boolean, method: string) {
  const scope = sql`account_id = ${accountId} and livemode = ${livemode ? 1 : 0} and paid_with is null`;
  const query = sql`with recursive v(m) as (
      select min(payment_methods) from transactions where ${scope}
      union all
      select (select min(payment_methods) from transactions where ${scope} and payment_methods > v.m) from v where v.m is not null
    )
    select coalesce(sum((select count(*) from transactions where ${scope} and payment_methods = v.m)), 0) as n
    from v where v.m is not null and instr(v.m, ${`"${method}"`}) > 0`;
  // drizzle's `get` of a raw query answers the row's values in column order.
  return { query, get: () => db.get<[number]>(query)[0] };
}

/**
 * One page of rows and the total matching the filters. Ties of the sort key are broken by
 * insertion order (rowid), which the (account, mode, created_at) index already carries.
 */
function page(db: Db, q: PaymentListQuery) {
  const conds: SQL[] = [eq(t.accountId, q.accountId), eq(t.livemode, q.livemode)];
  if (q.status) conds.push(eq(t.status, q.status));
  if (q.startMs !== undefined) conds.push(gte(t.createdAt, q.startMs));
  if (q.endMs !== undefined) conds.push(lte(t.createdAt, q.endMs));
  if (q.paymentMethod !== undefined) conds.push(methodCondition(q.paymentMethod));
  if (q.search !== undefined) conds.push(searchCondition(db, q.search, and(...conds)!));
  const where = and(...conds);
  const noDates = q.startMs === undefined && q.endMs === undefined && q.search === undefined;
  const total =
    noDates && q.paymentMethod === undefined
      ? aggregateTotal(db, q)
      : noDates && q.status === undefined && q.paymentMethod !== undefined
        ? methodTotal(db, { ...q, paymentMethod: q.paymentMethod })
        : db.select({ n: sql<number>`count(*)` }).from(t).where(where).get()!.n;
  // `total` is exact: a page past it is empty without walking the sort index (a method nobody
  // used would otherwise read every row of the mode looking for a match).
  if ((q.page - 1) * q.limit >= total) return { rows: [], total };
  const dir = q.sortOrder === "asc" ? asc : desc;
  const rows = db
    .select()
    .from(t)
    .where(where)
    .orderBy(dir(SORT_SQL[q.sortBy]), dir(sql`rowid`))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .all();
  return { rows, total };
}

/**
 * The condition of a search term: the one transaction whose id, txid or end-to-end id it is
 * (three unique-index lookups), else the transactions of that customer document (digits only).
 */
function searchCondition(db: Db, term: string, scope: SQL): SQL {
  const s = term.trim();
  const id = s.startsWith("ch_") ? s.slice(3) : s;
  const exact = or(eq(t.id, id), eq(t.pixTxid, s), eq(t.endToEndId, s))!;
  const hit = db.select({ id: t.id }).from(t).where(and(scope, exact)).limit(1).get();
  if (hit) return eq(t.id, hit.id);
  // Documents are stored as sent (payments group) or as digits (charges): match either form.
  const digits = s.replace(/[.\-/\s]/g, "");
  return inArray(t.customerDocument, [...new Set([s, digits])]);
}

/**
 * Paid with `method`, or unpaid and offering it. `payment_methods` is a JSON array of the enum's
 * names, none a substring of another once quoted, so `instr` on `"NAME"` is an exact membership test.
 */
function methodCondition(method: string): SQL {
  return or(eq(t.paidWith, method), and(sql`${t.paidWith} is null`, offers(method)))!;
}

/** `payment_methods` (a JSON array of method names) holds `method`. */
function offers(method: string): SQL {
  return sql`instr(${t.paymentMethods}, ${`"${method}"`}) > 0`;
}

const TX_COLUMNS = Object.entries(getTableColumns(t));
/** Every column under its row key, so a raw statement's rows are `TransactionRow`s once booleans are mapped. */
const SELECT_LIST = TX_COLUMNS.map(([key, col]) => `"${col.name}" as "${key}"`).join(", ");
const BOOLEAN_KEYS = TX_COLUMNS.filter(([, col]) => col.dataType === "boolean").map(([key]) => key);
const rawDetail = (method: string, key: string) => `json_extract(method_details, '$.${method}.${key}')`;
/** SORT_SQL as raw SQL text, for the prepared statements of `fastPage` (same keys, same order). */
const SORT_TEXT: Record<PaymentSortField, string> = {
  id: "id",
  status: "status",
  amount: "amount",
  currency: "currency",
  paymentMethods: "payment_methods",
  customerName: "customer_name",
  customerDocument: "customer_document",
  customerEmail: "customer_email",
  metadata: "metadata",
  createdAt: "created_at",
  paidWith: "paid_with",
  pixQrCode: "pix_br_code",
  pixCopyPaste: "pix_br_code",
  pixExpiresAt: "expires_at",
  cardRedirectUrl: "id",
  mbEntity: rawDetail("MULTIBANCO", "entity"),
  mbReference: rawDetail("MULTIBANCO", "reference"),
  mbExpiresAt: rawDetail("MULTIBANCO", "expiresAt"),
  boletoBarcode: rawDetail("BOLETO", "barcode"),
  boletoLine: rawDetail("BOLETO", "line"),
  boletoPdfUrl: "id",
  boletoExpiresAt: rawDetail("BOLETO", "expiresAt"),
  cryptoAddress: rawDetail("CRYPTO", "address"),
  cryptoAmount: `cast(${rawDetail("CRYPTO", "amount")} as real)`,
  cryptoNetwork: rawDetail("CRYPTO", "network"),
  cryptoCurrency: rawDetail("CRYPTO", "currency"),
  platformFee: "platform_fee",
  paidAt: "paid_at",
};

/**
 * `page` without search or method filter (the dashboard's and the API's usual list) on statements
 * prepared once per connection: the drizzle builder, its `prepare` on every call and its row
 * mapping were about half of a 20-item page's CPU (profile in docs/performance.md, "Payments
 * list"). Same queries, same indexes, same answers as `page`.
 */
function fastPage(ctx: SqliteContext, q: PaymentListQuery): { rows: TransactionRow[]; total: number } {
  const mode = q.livemode ? 1 : 0;
  let where = "account_id = ? and livemode = ?";
  const args: (string | number)[] = [q.accountId, mode];
  if (q.status) {
    where += " and status = ?";
    args.push(q.status);
  }
  const dated = q.startMs !== undefined || q.endMs !== undefined;
  if (q.startMs !== undefined) {
    where += " and created_at >= ?";
    args.push(q.startMs);
  }
  if (q.endMs !== undefined) {
    where += " and created_at <= ?";
    args.push(q.endMs);
  }
  const total = dated
    ? (ctx.stmt(`select count(*) as n from transactions where ${where}`).get(...args) as { n: number }).n
    : (
        ctx.stmt(`select coalesce(sum(count), 0) as n from payment_daily_stats where ${where}`).get(...args) as {
          n: number;
        }
      ).n;
  if ((q.page - 1) * q.limit >= total) return { rows: [], total };
  const dir = q.sortOrder === "asc" ? "asc" : "desc";
  const sqlText = `select ${SELECT_LIST} from transactions where ${where} order by ${SORT_TEXT[q.sortBy]} ${dir}, rowid ${dir} limit ? offset ?`;
  const rows = ctx.stmt(sqlText).all(...args, q.limit, (q.page - 1) * q.limit) as Record<string, unknown>[];
  if (BOOLEAN_KEYS.length) for (const r of rows) for (const k of BOOLEAN_KEYS) r[k] = r[k] === 1 || r[k] === true;
  return { rows: rows as unknown as TransactionRow[], total };
}

/** Builds the payments repository on the adapter's connection `ctx`. */
export function paymentsRepo(ctx: SqliteContext): PaymentsRepo {
  const db = ctx.db;
  return {
    async page(q) {
      return q.search === undefined && q.paymentMethod === undefined ? fastPage(ctx, q) : page(db, q);
    },
    async recentLegacyEventBodies(transactionId, limit) {
      const rows = db
        .select({ body: events.body })
        .from(events)
        .where(and(eq(events.transactionId, transactionId), eq(events.family, "legacy")))
        .orderBy(desc(events.createdAt))
        .limit(limit)
        .all();
      return rows.map((r) => r.body);
    },
  };
}
