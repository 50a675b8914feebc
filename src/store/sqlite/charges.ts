/** SQLite implementation of the charges repository (src/store/port/charges.ts). */
import type { ChargesRepo } from "../port/charges";
import type { SqliteContext } from "./context";

/** Builds the charges repository on the adapter's connection `ctx`. */
export function chargesRepo(ctx: SqliteContext): ChargesRepo {
  void ctx;
  return {};
}
