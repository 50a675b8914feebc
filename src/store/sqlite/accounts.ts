/** SQLite implementation of the accounts repository (src/store/port/accounts.ts). */
import type { AccountsRepo } from "../port/accounts";
import type { SqliteContext } from "./context";

/** Builds the accounts repository on the adapter's connection `ctx`. */
export function accountsRepo(ctx: SqliteContext): AccountsRepo {
  void ctx;
  return {};
}
