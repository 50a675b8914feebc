/**
 * The events API (extensions.md "Events API and `cofre listen`"): GET /v1/events (cursor list,
 * newest first) and GET /v1/events/{id}, apikey (the key's mode). HTTP only.
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { getEvent, listEvents } from "../../../domain/events/service";
import { EventListSchema, EventSchema } from "../../../domain/events/views";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { singleQuery } from "../../query";
import { Str } from "../../schemas";
import { AUTH_ERRORS, op } from "../../openapi";

const tags = ["events"];

export function eventRoutes(deps: Deps) {
  return new Elysia()
    .use(apiKeyAuth(deps))
    .get("/v1/events", ({ auth, request }) => listEvents(deps, auth, singleQuery(request)), {
      detail: op({
        tags,
        security: "apikey",
        summary: "List events of the last 30 days (cursor: starting_after)",
        description:
          "Every canonical event (`charge.*`, `payout.*`) of the key's account and mode, kept 30 days whether or not an endpoint subscribes; newest first, " +
          "`{object: list, data, has_more, next_cursor}`; each item exactly as delivered. Unknown parameters or bad values -> 400.",
        ok: { 200: EventListSchema },
        errors: [400, ...AUTH_ERRORS.apikey],
        query: [
          {
            name: "type",
            description: "An event name (`charge.paid`) or a family (`charge.*`, `payout.*`); several comma-separated.",
          },
          { name: "created_after", description: "ISO 8601 timestamp, exclusive." },
          { name: "created_before", description: "ISO 8601 timestamp, exclusive." },
          { name: "limit", description: "1-100, default 25.", schema: { type: "integer", minimum: 1, maximum: 100 } },
          {
            name: "starting_after",
            description: "An evt_ id of your events: the page of older events after it (`next_cursor`).",
          },
        ],
      }),
    })
    .get("/v1/events/:id", ({ auth, params }) => getEvent(deps, auth, params.id), {
      params: t.Object({ id: Str({ minLength: 1, maxLength: 100 }) }),
      detail: op({
        tags,
        security: "apikey",
        summary: "Retrieve an event exactly as delivered (same id, type, data)",
        ok: { 200: EventSchema },
        errors: [...AUTH_ERRORS.apikey, 404],
      }),
    });
}
