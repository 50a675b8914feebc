/**
 * The events repository of the storage port (see src/store/port.ts): the `events` outbox, one row
 * per stored event envelope (interface.md "Events"). Times in epoch ms.
 */
import type { EventRow, NewEventRow } from "../rows";

/** A page query of GET /v1/events (extensions.md "Events API"): canonical events of one scope, newest first. */
export interface EventListQuery {
  accountId: string;
  livemode: boolean;
  /** Rows to return at most (the service asks limit + 1 to learn `has_more`). */
  limit: number;
  /** Exact type names to keep (OR); undefined = every type. */
  types?: string[];
  /** Type prefixes to keep (OR with `types`), e.g. `charge.` for the family `charge.*`. */
  typePrefixes?: string[];
  /** Exclusive bounds on `created_at` (epoch ms). */
  createdAfterMs?: number;
  createdBeforeMs?: number;
  /** The page after this event (its `created_at` and `id`): strictly older in (created_at, id) order. */
  after?: { createdAt: number; id: string };
}

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. */
export interface EventsRepo {
  /** Stores one event envelope (`body`: the JSON sent to every destination). Hot path: once per stored event. */
  append(row: NewEventRow): Promise<void>;
  /** The stored envelope (JSON text) of event `eventId`; undefined when there is none. */
  bodyOf(eventId: string): Promise<string | undefined>;
  /** Canonical-family events of `q`'s scope, newest first by (created_at, id). */
  list(q: EventListQuery): Promise<EventRow[]>;
  /** The canonical-family event `id` of the scope; undefined when missing or another scope's. */
  byScopedId(accountId: string, livemode: boolean, id: string): Promise<EventRow | undefined>;
  /**
   * Deletes up to `limit` events created before `cutoffMs` that no webhook delivery refers to
   * (a delivery's payload is its event's body, so those stay with their delivery). Returns the
   * number deleted (the 30-day retention job calls it until it returns less than `limit`).
   */
  pruneOlderThan(cutoffMs: number, limit: number): Promise<number>;
}
