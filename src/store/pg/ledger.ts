/** PostgreSQL implementation of the ledger repository (src/store/port/ledger.ts). NOT BUILT YET: every method throws. */
import type { LedgerRepo } from "../port/ledger";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the ledger repository on `ctx`. */
export function ledgerRepo(_ctx: PgContext): LedgerRepo {
  return notBuilt<LedgerRepo>("ledger");
}
