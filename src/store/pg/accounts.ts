/** PostgreSQL implementation of the accounts repository (src/store/port/accounts.ts). NOT BUILT YET: every method throws. */
import type { AccountsRepo } from "../port/accounts";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the accounts repository on `ctx`. */
export function accountsRepo(_ctx: PgContext): AccountsRepo {
  return notBuilt<AccountsRepo>("accounts");
}
