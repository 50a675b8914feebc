/** SQLite implementation of the refunds repository (src/store/port/refunds.ts). */
import type { RefundsRepo } from "../port/refunds";
import type { SqliteContext } from "./context";

/** Builds the refunds repository on the adapter's connection `ctx`. */
export function refundsRepo(ctx: SqliteContext): RefundsRepo {
  void ctx;
  return {};
}
