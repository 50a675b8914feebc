/** /v1/webhooks: endpoints, event catalog (no auth), deliveries, stats, manual re-send. */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { EVENT_CATALOG } from "../../../domain/events/catalog";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { StrictObject } from "../../schemas";
import { ApiError } from "../../errors";
import * as svc from "../../../domain/webhooks/service";
import { deliveryRoutes } from "./deliveries";
import { DELIVERY_DOC } from "./docs";
import {
  EndpointDeletedSchema,
  EndpointListSchema,
  EndpointSchema,
  EndpointSecretSchema,
  EndpointWithSecretSchema,
} from "../../../domain/webhooks/views";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";
import { Type, View } from "../../../lib/view-schema";

const A = AUTH_ERRORS.apikey;
/** One entry of GET /v1/webhooks/event-catalog. */
const CatalogEntrySchema = View("EventCatalogEntry", {
  event: Type.String({ examples: ["charge.paid"] }),
  description: Type.String(),
  legacy: Type.Optional(Type.Literal(true)),
});

const CreateBody = StrictObject({
  url: t.String({ maxLength: 2048, description: "https URL (live); any http(s) URL in test mode." }),
  events: t.Array(t.String({ maxLength: 100 }), {
    maxItems: 100,
    description: "Event names from GET /v1/webhooks/event-catalog.",
  }),
});
const PatchBody = StrictObject({
  url: t.Optional(t.String({ maxLength: 2048 })),
  events: t.Optional(t.Array(t.String({ maxLength: 100 }), { maxItems: 100 })),
  status: t.Optional(t.Union([t.Literal("ACTIVE"), t.Literal("INACTIVE")])),
});
const RotateBody = StrictObject({ id: t.String({ maxLength: 100 }) });

const tags = ["webhooks"];

/** Route group of the webhooks part of interface.md. */
export function webhookRoutes(deps: Deps) {
  const catalog = new Elysia().get("/v1/webhooks/event-catalog", () => EVENT_CATALOG.map((e) => ({ ...e })), {
    detail: op({
      tags,
      summary: "Subscribable event names (no authentication)",
      description:
        "Array of `{event, description, legacy?}`; `legacy: true` marks the deprecated payment.*/withdrawal.* family.",
      security: "none",
      ok: { 200: Type.Array(CatalogEntrySchema) },
      errors: [],
    }),
  });

  const endpoints = new Elysia()
    .use(apiKeyAuth(deps))
    .post(
      "/v1/webhooks/endpoints",
      ({ auth, body, set }) => {
        set.status = 201;
        return svc.createEndpoint(deps, auth, body);
      },
      {
        body: CreateBody,
        detail: op({
          security: "apikey",
          ok: { 201: EndpointWithSecretSchema },
          errors: [...BODY_ERRORS, ...A],
          requestExample: { url: "https://shop.example.com/webhooks/cofre", events: ["charge.paid", "charge.expired"] },
          tags,
          summary: "Register an endpoint",
          description:
            "201 `{id, url, events, secret, status, createdAt, updatedAt}`; `secret` (64 lowercase hex) is shown only here and on rotate-secret. " +
            "Unknown event names -> 400 `invalid_event_type`. Both modes: a public host (loopback, private, link-local, local names and IPv6 forms embedding IPv4 -> 400 `webhook_url_not_allowed`, also checked against DNS at connect time); live mode also `https://` (400 `invalid_url`); COFRE_WEBHOOK_ALLOW_PRIVATE=1 lifts both. " +
            DELIVERY_DOC,
        }),
      },
    )
    .get("/v1/webhooks/endpoints", ({ auth }) => svc.listEndpoints(deps, auth), {
      detail: op({
        tags,
        summary: "List endpoints (no secrets)",
        security: "apikey",
        ok: { 200: EndpointListSchema },
        errors: [...A],
      }),
    })
    .patch("/v1/webhooks/endpoints/:id", ({ auth, body, params }) => svc.updateEndpoint(deps, auth, params.id, body), {
      body: PatchBody,
      detail: op({
        tags,
        summary: "Update an endpoint (only the fields sent change)",
        description:
          "200 `{id, url, events, status, createdAt, updatedAt}`, no secret. An INACTIVE endpoint gets no new deliveries; its pending ones are CANCELLED when their attempt comes due.",
        security: "apikey",
        ok: { 200: EndpointSchema },
        errors: [...BODY_ERRORS, ...A, 404],
        requestExample: { status: "INACTIVE" },
      }),
    })
    .delete("/v1/webhooks/endpoints/:id", ({ auth, params }) => svc.deleteEndpoint(deps, auth, params.id), {
      detail: op({
        tags,
        summary: "Delete an endpoint",
        description: "200 `{deleted: true}`; its PENDING deliveries become CANCELLED and are never sent.",
        security: "apikey",
        ok: { 200: EndpointDeletedSchema },
        errors: [...BODY_ERRORS, ...A, 404],
      }),
    })
    .post(
      "/v1/webhooks/endpoints/:id/rotate-secret",
      ({ auth, body, params }) => {
        if (body.id !== params.id) throw idMismatch();
        return svc.rotateEndpointSecret(deps, auth, params.id);
      },
      {
        body: RotateBody,
        detail: op({
          tags,
          summary: "Rotate the signing secret",
          description:
            "Body `{id}` must repeat the endpoint id (else 400). 200 `{id, secret}`, shown once. Instant swap, no overlap: every attempt signed after the call (including retries of older deliveries) uses the new secret.",
          security: "apikey",
          ok: { 200: EndpointSecretSchema },
          errors: [...BODY_ERRORS, ...A, 404],
          requestExample: { id: "wh_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a" },
        }),
      },
    );

  return new Elysia().use(catalog).use(endpoints).use(deliveryRoutes(deps));
}

/** 400 for a rotate-secret body whose `id` is not the path's endpoint id. */
function idMismatch(): ApiError {
  return new ApiError("invalid_request", "The body id must equal the endpoint id in the path.", {
    param: "id",
    details: [{ param: "id", message: "Must equal the path id." }],
  });
}
