/**
 * TRANSITIONAL (issue 16, phase 2): the synchronous reads and writes of `transactions` that other
 * areas (payments, MED, webhooks fan-out) still call with a drizzle handle until they are behind
 * the storage port. The charges area itself uses only the repository (src/store/port/charges.ts).
 * Delete this file once its callers use `uow.charges.byId` / `uow.charges.update` and
 * `deps.store.read.charges.byScopedId` (a Uow is a drizzle handle meanwhile, so `await findById(uow, id)`
 * keeps working until then).
 */
import type { Statement } from "bun:sqlite";
import { eq, getTableColumns } from "drizzle-orm";
import { transactions } from "../../../db/schema";
import type { Db, DbOrTx } from "../../db/client";
import type { TransactionRow } from "../../store/rows";

const COLUMNS = Object.entries(getTableColumns(transactions)).map(([key, col]) => ({ key: key as keyof TransactionRow, name: col.name }));
/** Boolean columns (stored as 0/1). */
const BOOLEAN_KEYS = COLUMNS.filter((c) => getTableColumns(transactions)[c.key].dataType === "boolean").map((c) => c.key);
const SELECT_LIST = COLUMNS.map((c) => `"${c.name}" as "${c.key}"`).join(", ");
const scopedStatements = new WeakMap<object, Statement>();

/** The transaction `id` of (account, mode), or undefined (TRANSITIONAL: `deps.store.read.charges.byScopedId`). */
export function findScoped(db: Db, accountId: string, livemode: boolean, id: string): TransactionRow | undefined {
  let st = scopedStatements.get(db.$client);
  if (!st)
    scopedStatements.set(db.$client, (st = db.$client.prepare(`select ${SELECT_LIST} from transactions where id = ? and account_id = ? and livemode = ?`)));
  const raw = st.get(id, accountId, livemode ? 1 : 0) as Record<string, unknown> | null;
  if (!raw) return undefined;
  for (const k of BOOLEAN_KEYS) raw[k] = raw[k] === 1 || raw[k] === true;
  return raw as unknown as TransactionRow;
}

/** The transaction `id` whatever its account (TRANSITIONAL: `uow.charges.byId`). */
export function findById(db: DbOrTx, id: string): TransactionRow | undefined {
  return db.select().from(transactions).where(eq(transactions.id, id)).get();
}

/** Applies `patch` to the row `id`; returns the updated row (TRANSITIONAL: `uow.charges.update`). */
export function updateTransaction(t: DbOrTx, id: string, patch: Partial<TransactionRow>): TransactionRow {
  return t.update(transactions).set(patch).where(eq(transactions.id, id)).returning().get()!;
}
