/** GET /v1/webhooks/deliveries, GET /v1/webhooks/stats, POST /v1/webhooks/deliveries/{id}/retry, transaction secret. */
import { singleQuery } from "../../query";
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { isKnownEventType } from "../../../domain/events/catalog";
import { DELIVERY_STATUSES, type DeliveryStatus } from "../../../domain/webhooks/model";
import * as svc from "../../../domain/webhooks/service";
import { invalidParam } from "../../errors";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { DELIVERY_DOC, TRANSACTION_URL_DOC } from "./docs";
import {
  DeliveryAttemptListSchema,
  DeliveryListSchema,
  DeliverySchema,
  DeliveryStatsSchema,
  TransactionSecretSchema,
} from "../../../domain/webhooks/views";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";

const A = AUTH_ERRORS.apikey;

const tags = ["webhooks"];

function intParam(name: string, raw: string | undefined, dflt: number, min: number, max: number): number {
  if (raw === undefined) return dflt;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw invalidParam(name, `${name} must be an integer from ${min} to ${max}.`);
  return Number(raw);
}

export function deliveryRoutes(deps: Deps) {
  return new Elysia()
    .use(apiKeyAuth(deps))
    .get(
      "/v1/webhooks/deliveries",
      ({ auth, query, request }) => {
        singleQuery(request);
        const limit = intParam("limit", query.limit, 25, 1, 100);
        const offset = intParam("offset", query.offset, 0, 0, 1_000_000_000);
        if (query.status !== undefined && !DELIVERY_STATUSES.includes(query.status as DeliveryStatus))
          throw invalidParam("status", `status must be one of ${DELIVERY_STATUSES.join(", ")}.`);
        if (query.eventType !== undefined && !isKnownEventType(query.eventType))
          throw invalidParam(
            "eventType",
            "Unknown event name; see GET /v1/webhooks/event-catalog.",
            "invalid_event_type",
          );
        const transactionId = query.transactionId?.startsWith("ch_")
          ? query.transactionId.slice(3)
          : query.transactionId;
        const filters = {
          status: query.status as DeliveryStatus | undefined,
          eventType: query.eventType,
          endpointId: query.endpointId,
          transactionId,
        };
        return svc.listDeliveries(deps, auth, filters, limit, offset);
      },
      {
        query: t.Object({
          status: t.Optional(t.String({ description: DELIVERY_STATUSES.join(" | ") })),
          eventType: t.Optional(t.String({ description: "An event name of the catalog." })),
          endpointId: t.Optional(t.String({ description: "A wh_ id." })),
          transactionId: t.Optional(
            t.String({ description: "A transaction id (raw or ch_): deliveries of its events." }),
          ),
          limit: t.Optional(t.String({ description: "1-100, default 25." })),
          offset: t.Optional(t.String({ description: "Default 0." })),
        }),
        detail: op({
          security: "apikey",
          ok: { 200: DeliveryListSchema },
          errors: [400, ...A],
          tags,
          summary: "List deliveries",
          description:
            "Newest first. Filters `status`, `eventType`, `endpointId`, `transactionId` (raw or `ch_` id); `limit` 1-100 (default 25), `offset` (default 0); an unknown filter value -> 400. " +
            "200 `{data, total, limit, offset}`; each delivery: `id, endpointId, eventType, status, attempts, maxAttempts, lastStatusCode, lastError, lastResponseBody, nextRetryAt, deliveredAt, createdAt, updatedAt, payload`. " +
            DELIVERY_DOC,
        }),
      },
    )
    .get("/v1/webhooks/stats", ({ auth }) => svc.deliveryStats(deps, auth), {
      detail: op({
        tags,
        summary: "Delivery counters",
        description: "200 `{total, PENDING, PROCESSING, DELIVERED, FAILED, CANCELLED}`.",
        security: "apikey",
        ok: { 200: DeliveryStatsSchema },
        errors: [...A],
      }),
    })
    .get("/v1/webhooks/deliveries/:id/attempts", ({ auth, params }) => svc.deliveryAttempts(deps, auth, params.id), {
      detail: op({
        security: "apikey",
        ok: { 200: DeliveryAttemptListSchema },
        errors: [...A, 404],
        tags,
        summary: "The attempts of a delivery",
        description:
          "200 `{data: [{attempt, status_code, error, response_body, duration_ms, attempted_at}]}`, oldest first, as recorded when each attempt was made (`response_body` cut at 2048 characters). " +
          "A delivery of another account or mode -> 404.",
      }),
    })
    .post("/v1/webhooks/deliveries/:id/retry", ({ auth, params }) => svc.retryDelivery(deps, auth, params.id), {
      detail: op({
        security: "apikey",
        ok: { 200: DeliverySchema },
        errors: [...BODY_ERRORS, ...A, 404],
        tags,
        summary: "Re-send a dead-lettered delivery now",
        description:
          "Only a FAILED (dead letter) or CANCELLED delivery whose endpoint still exists and is ACTIVE (else 400 `invalid_state`). " +
          "It is queued at once as one extra attempt (`maxAttempts` grows by one), same delivery id and event id; 200 the delivery (PENDING).",
      }),
    })
    .post("/v1/webhooks/transaction-secret/rotate", ({ auth }) => svc.rotateTransactionSecret(deps, auth), {
      detail: op({
        tags,
        summary: "Issue or replace the transaction-webhook secret",
        description: `200 \`{secret}\` (64 hex, shown once). ${TRANSACTION_URL_DOC}`,
        security: "apikey",
        ok: { 200: TransactionSecretSchema },
        errors: [...BODY_ERRORS, ...A],
      }),
    });
}
