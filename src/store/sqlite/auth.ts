/** SQLite implementation of the auth repository (src/store/port/auth.ts). */
import type { AuthRepo } from "../port/auth";
import type { SqliteContext } from "./context";

/** Builds the auth repository on the adapter's connection `ctx`. */
export function authRepo(ctx: SqliteContext): AuthRepo {
  void ctx;
  return {};
}
