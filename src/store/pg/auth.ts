/** PostgreSQL implementation of the auth repository (src/store/port/auth.ts). NOT BUILT YET: every method throws. */
import type { AuthRepo } from "../port/auth";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the auth repository on `ctx`. */
export function authRepo(_ctx: PgContext): AuthRepo {
  return notBuilt<AuthRepo>("auth");
}
