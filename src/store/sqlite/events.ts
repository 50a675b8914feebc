/** SQLite implementation of the events repository (src/store/port/events.ts). */
import type { EventsRepo } from "../port/events";
import type { SqliteContext } from "./context";

/** Builds the events repository on the adapter's connection `ctx`. */
export function eventsRepo(ctx: SqliteContext): EventsRepo {
  void ctx;
  return {};
}
