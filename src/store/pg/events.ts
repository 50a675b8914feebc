/** PostgreSQL implementation of the events repository (src/store/port/events.ts). NOT BUILT YET: every method throws. */
import type { EventsRepo } from "../port/events";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the events repository on `ctx`. */
export function eventsRepo(_ctx: PgContext): EventsRepo {
  return notBuilt<EventsRepo>("events");
}
