/** SQLite implementation of the jobs repository (src/store/port/jobs.ts). */
import type { JobsRepo } from "../port/jobs";
import type { SqliteContext } from "./context";

/** Builds the jobs repository on the adapter's connection `ctx`. */
export function jobsRepo(ctx: SqliteContext): JobsRepo {
  void ctx;
  return {};
}
