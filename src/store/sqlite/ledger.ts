/** SQLite implementation of the ledger repository (src/store/port/ledger.ts). */
import type { LedgerRepo } from "../port/ledger";
import type { SqliteContext } from "./context";

/** Builds the ledger repository on the adapter's connection `ctx`. */
export function ledgerRepo(ctx: SqliteContext): LedgerRepo {
  void ctx;
  return {};
}
