/**
 * The events repository of the storage port (see src/store/port.ts): the `events` outbox, one row
 * per stored event envelope (interface.md "Events"). Times in epoch ms.
 */
import type { NewEventRow } from "../rows";

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. */
export interface EventsRepo {
  /** Stores one event envelope (`body`: the JSON sent to every destination). Hot path: once per stored event. */
  append(row: NewEventRow): Promise<void>;
  /** The stored envelope (JSON text) of event `eventId`; undefined when there is none. */
  bodyOf(eventId: string): Promise<string | undefined>;
}
