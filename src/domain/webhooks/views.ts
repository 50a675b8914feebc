/** Allowlist serializers of the webhook resources (interface.md "Webhook endpoint", "Webhook delivery"). */
import { iso } from "../../lib/clock";
import { DELIVERY_STATUSES, ENDPOINT_STATUSES, type DeliveryStatus, type EndpointStatus } from "./model";
import type {
  WebhookAttemptRow as AttemptRow,
  WebhookDeliveryRow as DeliveryRow,
  WebhookEndpointRow as EndpointRow,
} from "../../store/rows";
import { DateTime, Nullable, OneOf, Type, Url, View, type Static } from "../../lib/view-schema";

const endpointFields = {
  id: Type.String({ examples: ["wh_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  url: Url({ examples: ["https://shop.example.com/webhooks/cofre"] }),
  events: Type.Array(Type.String(), { examples: [["charge.paid", "charge.expired"]] }),
  status: OneOf(ENDPOINT_STATUSES),
  createdAt: DateTime(),
  updatedAt: DateTime(),
};
const Secret = () =>
  Type.String({
    pattern: "^[0-9a-f]{64}$",
    description: "64 lowercase hex; shown once.",
    examples: ["9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"],
  });

/** Webhook endpoint (interface.md "Webhook endpoint"), without its secret. */
export const EndpointSchema = View("WebhookEndpoint", endpointFields);
/** The create response: the endpoint with its secret. */
export const EndpointWithSecretSchema = View("WebhookEndpointWithSecret", { ...endpointFields, secret: Secret() });
/** GET /v1/webhooks/endpoints. */
export const EndpointListSchema = View("WebhookEndpointList", { data: Type.Array(EndpointSchema) });
/** POST /v1/webhooks/endpoints/{id}/rotate-secret. */
export const EndpointSecretSchema = View("WebhookEndpointSecret", { id: Type.String(), secret: Secret() });
/** POST /v1/webhooks/transaction-secret/rotate. */
export const TransactionSecretSchema = View("TransactionWebhookSecret", { secret: Secret() });
/** DELETE /v1/webhooks/endpoints/{id}. */
export const EndpointDeletedSchema = View("WebhookEndpointDeleted", { deleted: Type.Literal(true) });

/** Webhook delivery (interface.md "Webhook delivery") with the envelope sent as `payload`. */
export const DeliverySchema = View("WebhookDelivery", {
  id: Type.String({ examples: ["wd_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  endpointId: Nullable(Type.String({ description: "null for a transaction `webhookUrl` delivery." })),
  eventType: Type.String({ examples: ["charge.paid"] }),
  status: OneOf(DELIVERY_STATUSES),
  attempts: Type.Integer({ minimum: 0 }),
  maxAttempts: Type.Integer({ minimum: 1 }),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  lastResponseBody: Nullable(Type.String({ description: "At most 2048 characters." })),
  nextRetryAt: Nullable(DateTime()),
  deliveredAt: Nullable(DateTime()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
  payload: Type.Unknown({ description: "The exact event envelope sent." }),
});
/** GET /v1/webhooks/deliveries: an offset page. */
export const DeliveryListSchema = View("WebhookDeliveryList", {
  data: Type.Array(DeliverySchema),
  total: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100 }),
  offset: Type.Integer({ minimum: 0 }),
});
/** GET /v1/webhooks/stats: `total` and one count per delivery status. */
export const DeliveryStatsSchema = View("WebhookDeliveryStats", {
  total: Type.Integer({ minimum: 0 }),
  PENDING: Type.Integer({ minimum: 0 }),
  PROCESSING: Type.Integer({ minimum: 0 }),
  DELIVERED: Type.Integer({ minimum: 0 }),
  FAILED: Type.Integer({ minimum: 0 }),
  CANCELLED: Type.Integer({ minimum: 0 }),
});

/** Endpoint without its secret: `id, url, events, status, createdAt, updatedAt`. */
export function endpointView(e: EndpointRow): Static<typeof EndpointSchema> {
  return {
    id: e.id,
    url: e.url,
    events: JSON.parse(e.events) as string[],
    status: e.status as EndpointStatus,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}

/** Endpoint with its secret: only the create response (rotate returns `{id, secret}`). */
export function endpointWithSecretView(e: EndpointRow): Static<typeof EndpointWithSecretSchema> {
  return { ...endpointView(e), secret: e.secret };
}

const isoOrNull = (v: number | null) => (v === null ? null : iso(v));

/** Delivery with the envelope that was (or will be) sent as `payload`. */
export function deliveryView(d: DeliveryRow, body: string): Static<typeof DeliverySchema> {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventType: d.eventType,
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    maxAttempts: d.maxAttempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    lastResponseBody: d.lastResponseBody,
    nextRetryAt: isoOrNull(d.nextRetryAt),
    deliveredAt: isoOrNull(d.deliveredAt),
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    payload: JSON.parse(body) as unknown,
  };
}

/** Stats object: `total` and one count per delivery status. */
export function statsView(counts: Record<string, number>): Static<typeof DeliveryStatsSchema> {
  const out: Record<string, number> = { total: 0 };
  for (const s of DELIVERY_STATUSES) {
    out[s] = counts[s] ?? 0;
    out.total! += out[s]!;
  }
  return out as Static<typeof DeliveryStatsSchema>;
}

/** One attempt of a delivery (GET /v1/webhooks/deliveries/{id}/attempts), from its `webhook_attempts` row. */
export const DeliveryAttemptSchema = View("WebhookDeliveryAttempt", {
  attempt: Type.Integer({ minimum: 1, description: "1-based attempt number." }),
  status_code: Nullable(
    Type.Integer({
      description: "The HTTP status the endpoint answered; null when none (timeout, network error, still sending).",
    }),
  ),
  error: Nullable(Type.String()),
  response_body: Nullable(Type.String({ description: "The endpoint's answer as stored: at most 2048 characters." })),
  duration_ms: Nullable(
    Type.Integer({ minimum: 0, description: "Milliseconds; null while the attempt is still sending." }),
  ),
  attempted_at: DateTime(),
});
/** GET /v1/webhooks/deliveries/{id}/attempts: oldest first. */
export const DeliveryAttemptListSchema = View("WebhookDeliveryAttemptList", {
  data: Type.Array(DeliveryAttemptSchema),
});

/** `{attempt, status_code, error, response_body, duration_ms, attempted_at}` (attempted_at: the attempt's start). */
export function attemptView(a: AttemptRow): Static<typeof DeliveryAttemptSchema> {
  return {
    attempt: a.attempt,
    status_code: a.statusCode,
    error: a.error,
    response_body: a.responseBody,
    duration_ms: a.durationMs,
    attempted_at: iso(a.startedAt),
  };
}
