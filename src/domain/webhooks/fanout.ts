/**
 * Fan-out of a stored event to one delivery per subscribed ACTIVE endpoint of the same account
 * and mode, inside the business transaction (filled by the issue "Webhooks").
 */
import type { Tx } from "../../db/client";
import type { Deps } from "../../deps";
import type { StoredEvent } from "../events/emit";

/** Creates the delivery rows (and their jobs) for `event` with `t`. */
export function fanOut(deps: Deps, t: Tx, event: StoredEvent): void {
  void deps;
  void t;
  void event;
}
