/**
 * TRANSITIONAL (issue 16, phase 2): the synchronous account reads and writes still called with a
 * drizzle handle by areas not yet behind the storage port (charges/settlement, ledger/service and
 * payments/refunds through `getAccountSettings(t, ...)`; payments/receipt and boleto-pdf through
 * `findAccount(deps.db, ...)`; payments tests through `updateAccountSettings(db, ...)`). The
 * accounts area itself reads through `store` (src/store/port/accounts.ts). Delete this file once
 * those callers pass a uow or `store.read`.
 */
import { eq } from "drizzle-orm";
import { accounts } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";
import type { AccountRow } from "../../store/rows";
import type { AccountSettingsColumns } from "../../store/port/accounts";

export type { AccountRow };

/** The account `id`, or undefined (synchronous, on a drizzle handle). */
export function findAccount(db: DbOrTx, id: string): AccountRow | undefined {
  return db.select().from(accounts).where(eq(accounts.id, id)).get();
}

/** Sets settings columns of account `id` (synchronous, on a drizzle handle). */
export function updateAccountColumns(db: DbOrTx, id: string, set: AccountSettingsColumns): void {
  if (Object.keys(set).length > 0) db.update(accounts).set(set).where(eq(accounts.id, id)).run();
}
