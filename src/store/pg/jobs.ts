/** PostgreSQL implementation of the jobs repository (src/store/port/jobs.ts). NOT BUILT YET: every method throws. */
import type { JobsRepo } from "../port/jobs";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the jobs repository on `ctx`. */
export function jobsRepo(_ctx: PgContext): JobsRepo {
  return notBuilt<JobsRepo>("jobs");
}
