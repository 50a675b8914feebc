/** PostgreSQL implementation of the stats repository (src/store/port/stats.ts). NOT BUILT YET: every method throws. */
import type { StatsRepo } from "../port/stats";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the stats repository on `ctx`. */
export function statsRepo(_ctx: PgContext): StatsRepo {
  return notBuilt<StatsRepo>("stats");
}
