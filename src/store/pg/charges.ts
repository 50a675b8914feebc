/** PostgreSQL implementation of the charges repository (src/store/port/charges.ts). NOT BUILT YET: every method throws. */
import type { ChargesRepo } from "../port/charges";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the charges repository on `ctx`. */
export function chargesRepo(_ctx: PgContext): ChargesRepo {
  return notBuilt<ChargesRepo>("charges");
}
