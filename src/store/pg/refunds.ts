/** PostgreSQL implementation of the refunds repository (src/store/port/refunds.ts). NOT BUILT YET: every method throws. */
import type { RefundsRepo } from "../port/refunds";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the refunds repository on `ctx`. */
export function refundsRepo(_ctx: PgContext): RefundsRepo {
  return notBuilt<RefundsRepo>("refunds");
}
