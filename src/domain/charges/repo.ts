/** Drizzle queries on `transactions` for the charges group (no HTTP, no business rules). */
import type { Statement } from "bun:sqlite";
import { and, desc, eq, getTableColumns, gte, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { accounts, transactions } from "../../../db/schema";
import type { Db, DbOrTx } from "../../db/client";
import type { TransactionRow } from "../../providers/types";
import type { AccountRules } from "../accounts/settings";
import type { TransactionStatus } from "./model";

/** Statuses that count toward the velocity guard (extensions.md: pending, processing, paid). */
export const ALIVE_STATUSES: TransactionStatus[] = ["PENDING", "WAITING_PAYMENT", "PROCESSING", "PAID", "APPROVED"];

const COLUMNS = Object.entries(getTableColumns(transactions)).map(([key, col]) => ({
  key: key as keyof TransactionRow,
  name: col.name,
  /** Schema default, used when a row leaves the column undefined (columns added later). */
  dflt: col.hasDefault && ["string", "number", "boolean"].includes(typeof col.default) ? (col.default as unknown) : undefined,
}));
/** Boolean columns (stored as 0/1). */
const BOOLEAN_KEYS = COLUMNS.filter((c) => getTableColumns(transactions)[c.key].dataType === "boolean").map((c) => c.key);
const SELECT_LIST = COLUMNS.map((c) => `"${c.name}" as "${c.key}"`).join(", ");
const scopedStatements = new WeakMap<object, Statement>();

function toRow(raw: Record<string, unknown> | null): TransactionRow | undefined {
  if (!raw) return undefined;
  for (const k of BOOLEAN_KEYS) raw[k] = raw[k] === 1 || raw[k] === true;
  return raw as unknown as TransactionRow;
}

/** The transaction `id` of (account, mode), or undefined. Cached prepared statement (hot path). */
export function findScoped(db: Db, accountId: string, livemode: boolean, id: string): TransactionRow | undefined {
  let st = scopedStatements.get(db.$client);
  if (!st)
    scopedStatements.set(db.$client, (st = db.$client.prepare(`select ${SELECT_LIST} from transactions where id = ? and account_id = ? and livemode = ?`)));
  return toRow(st.get(id, accountId, livemode ? 1 : 0) as Record<string, unknown> | null);
}

/** The transaction `id` whatever its account (public pages, jobs, settlement). */
export function findById(db: DbOrTx, id: string): TransactionRow | undefined {
  return db.select().from(transactions).where(eq(transactions.id, id)).get();
}

/** The transaction whose cob txid is `txid`. */
export function findByTxid(db: DbOrTx, txid: string): TransactionRow | undefined {
  return db.select().from(transactions).where(eq(transactions.pixTxid, txid)).get();
}

const INSERT_SQL = `insert into transactions (${COLUMNS.map((c) => `"${c.name}"`).join(", ")}) values (${COLUMNS.map(() => "?").join(", ")})`;
const insertStatements = new WeakMap<object, Statement>();

/**
 * Inserts `row` (every column) with a cached prepared statement (the create hot path; drizzle's
 * builder re-plans the SQL on every call). `db` is the database the transaction `t` runs on.
 */
export function insertTransaction(db: Db, t: DbOrTx, row: TransactionRow): void {
  void t; // bun:sqlite runs the statement inside the connection's open transaction.
  let st = insertStatements.get(db.$client);
  if (!st) insertStatements.set(db.$client, (st = db.$client.prepare(INSERT_SQL)));
  st.run(...COLUMNS.map((c) => toSql(row[c.key] === undefined ? c.dflt : row[c.key])));
}

function toSql(v: unknown): string | number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  return v as string | number;
}

const accountStatements = new WeakMap<object, Statement>();

/** Name and settings (all but the merchant identity) of an account in one prepared query (create hot path), or undefined. */
export function accountForCreate(db: Db, accountId: string): { name: string; settings: AccountRules } | undefined {
  let st = accountStatements.get(db.$client);
  if (!st)
    accountStatements.set(
      db.$client,
      (st = db.$client.prepare(
        "select name, payer_lock_enabled, default_expires_in, pix_fee_bps, pix_fee_fixed, settlement_delay_seconds, customer_velocity_max, account_velocity_max, velocity_window_seconds from accounts where id = ?",
      )),
    );
  const a = st.get(accountId) as Record<string, number | string | null> | null;
  if (!a) return undefined;
  return {
    name: a.name as string,
    settings: {
      payer_lock_enabled: a.payer_lock_enabled === 1,
      default_expires_in: a.default_expires_in as number,
      pix_fee_bps: a.pix_fee_bps as number,
      pix_fee_fixed: a.pix_fee_fixed as number,
      settlement_delay_seconds: a.settlement_delay_seconds as number,
      customer_velocity_max: a.customer_velocity_max as number | null,
      account_velocity_max: a.account_velocity_max as number | null,
      velocity_window_seconds: a.velocity_window_seconds as number,
    },
  };
}

/** Applies `patch` to the row `id`; returns the updated row. */
export function updateTransaction(t: DbOrTx, id: string, patch: Partial<TransactionRow>): TransactionRow {
  return t.update(transactions).set(patch).where(eq(transactions.id, id)).returning().get()!;
}

/** Rows whose payer document (customer document or expected payer tax id) is `doc`. */
function byDocument(doc: string) {
  return or(eq(transactions.customerDocument, doc), eq(transactions.expectedPayerTaxId, doc));
}

/** Name of the account (the BR Code receiver name), or undefined. */
export function accountName(db: DbOrTx, accountId: string): string | undefined {
  return db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)).get()?.name;
}

/** Alive transactions of (account, mode) created at or after `sinceMs`, optionally of one payer document. */
export function countAlive(db: DbOrTx, p: { accountId: string; livemode: boolean; sinceMs: number; document?: string }): number {
  const conds = [
    eq(transactions.accountId, p.accountId),
    eq(transactions.livemode, p.livemode),
    gte(transactions.createdAt, p.sinceMs),
    inArray(transactions.status, ALIVE_STATUSES),
  ];
  if (p.document !== undefined) conds.push(byDocument(p.document)!);
  return db.select({ n: sql<number>`count(*)` }).from(transactions).where(and(...conds)).get()!.n;
}

export interface ListQuery {
  accountId: string;
  livemode: boolean;
  limit: number;
  /** Row the page starts after (newest first). */
  after?: Pick<TransactionRow, "id" | "createdAt">;
  statuses?: TransactionStatus[];
  createdFromMs?: number;
  createdToMs?: number;
  document?: string;
}

/** Charges (transactions offering PIX) newest first; fetches `limit + 1` to tell `has_more`. */
export function listTransactions(db: DbOrTx, q: ListQuery): TransactionRow[] {
  const conds: (SQL | undefined)[] = [
    eq(transactions.accountId, q.accountId),
    eq(transactions.livemode, q.livemode),
    sql`${transactions.paymentMethods} like '%"PIX"%'`,
  ];
  if (q.statuses) conds.push(inArray(transactions.status, q.statuses));
  if (q.createdFromMs !== undefined) conds.push(gte(transactions.createdAt, q.createdFromMs));
  if (q.createdToMs !== undefined) conds.push(lte(transactions.createdAt, q.createdToMs));
  if (q.document !== undefined) conds.push(byDocument(q.document));
  if (q.after)
    conds.push(
      or(lt(transactions.createdAt, q.after.createdAt), and(eq(transactions.createdAt, q.after.createdAt), lt(transactions.id, q.after.id))),
    );
  return db
    .select()
    .from(transactions)
    .where(and(...conds))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(q.limit + 1)
    .all();
}
