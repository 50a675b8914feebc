/** Drizzle queries on `transactions` for the charges group (no HTTP, no business rules). */
import { and, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { accounts, transactions } from "../../../db/schema";
import type { Db, DbOrTx } from "../../db/client";
import type { TransactionRow } from "../../providers/types";
import type { TransactionStatus } from "./model";

/** Statuses that count toward the velocity guard (extensions.md: pending, processing, paid). */
export const ALIVE_STATUSES: TransactionStatus[] = ["PENDING", "WAITING_PAYMENT", "PROCESSING", "PAID", "APPROVED"];

const scopedStatements = new WeakMap<Db, ReturnType<typeof prepareScoped>>();

function prepareScoped(db: Db) {
  return db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.id, sql.placeholder("id")),
        eq(transactions.accountId, sql.placeholder("accountId")),
        eq(transactions.livemode, sql.placeholder("livemode")),
      ),
    )
    .prepare();
}

/** The transaction `id` of (account, mode), or undefined. Prepared statement (hot path). */
export function findScoped(db: Db, accountId: string, livemode: boolean, id: string): TransactionRow | undefined {
  let st = scopedStatements.get(db);
  if (!st) scopedStatements.set(db, (st = prepareScoped(db)));
  return st.get({ id, accountId, livemode: livemode ? 1 : 0 } as never) as TransactionRow | undefined;
}

/** The transaction `id` whatever its account (public pages, jobs, settlement). */
export function findById(db: DbOrTx, id: string): TransactionRow | undefined {
  return db.select().from(transactions).where(eq(transactions.id, id)).get();
}

/** The transaction whose cob txid is `txid`. */
export function findByTxid(db: DbOrTx, txid: string): TransactionRow | undefined {
  return db.select().from(transactions).where(eq(transactions.pixTxid, txid)).get();
}

export function insertTransaction(t: DbOrTx, row: TransactionRow): void {
  t.insert(transactions).values(row).run();
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
