/** PostgreSQL implementation of the requestLog repository (src/store/port/request-log.ts). NOT BUILT YET: every method throws. */
import type { RequestLogRepo } from "../port/request-log";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the requestLog repository on `ctx`. */
export function requestLogRepo(_ctx: PgContext): RequestLogRepo {
  return notBuilt<RequestLogRepo>("requestLog");
}
