/** SQLite implementation of the stats repository (src/store/port/stats.ts). */
import type { StatsRepo } from "../port/stats";
import type { SqliteContext } from "./context";

/** Builds the stats repository on the adapter's connection `ctx`. */
export function statsRepo(ctx: SqliteContext): StatsRepo {
  void ctx;
  return {};
}
