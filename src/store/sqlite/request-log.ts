/** SQLite implementation of the requestLog repository (src/store/port/request-log.ts). */
import type { RequestLogRepo } from "../port/request-log";
import type { SqliteContext } from "./context";

/** Builds the requestLog repository on the adapter's connection `ctx`. */
export function requestLogRepo(ctx: SqliteContext): RequestLogRepo {
  void ctx;
  return {};
}
