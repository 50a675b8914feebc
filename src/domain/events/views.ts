/**
 * Views of the events API (extensions.md "Events API and `cofre listen`"): an event is its stored
 * envelope exactly as it was (or would have been) delivered: interface.md "Canonical envelope".
 */
import { DateTime, JsonObject, Nullable, Type, View, type Static } from "../../lib/view-schema";

/** A canonical event envelope: `data.object` is the public Charge (or Payout) of the REST API. */
export const EventSchema = View("Event", {
  id: Type.String({
    description: "`evt_...`; the same id every webhook delivery of this event carried.",
    examples: ["evt_0193a1b2c3d4e5f60718293a4b5c6d7e"],
  }),
  object: Type.Literal("event"),
  api_version: Type.String({ description: "Contract version (a date)." }),
  type: Type.String({ description: "A canonical event name, e.g. `charge.paid`.", examples: ["charge.paid"] }),
  created_at: DateTime(),
  data: JsonObject({
    description: "`object`: the Charge or Payout as the REST API returned it then; `charge.refunded` adds `refund`.",
  }),
});

/** GET /v1/events: newest first. */
export const EventListSchema = View("EventList", {
  object: Type.Literal("list"),
  data: Type.Array(EventSchema),
  has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String({ description: "Pass as `starting_after` for the next (older) page." })),
});

export type PublicEvent = Static<typeof EventSchema>;
export type EventList = Static<typeof EventListSchema>;

/** The envelope of a stored event (its body is the exact JSON that was signed and sent). */
export function toPublicEvent(body: string): PublicEvent {
  return JSON.parse(body) as PublicEvent;
}
