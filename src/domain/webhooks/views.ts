/** Allowlist serializers of the webhook resources (interface.md "Webhook endpoint", "Webhook delivery"). */
import { iso } from "../../lib/clock";
import { DELIVERY_STATUSES } from "./model";
import type { DeliveryRow, EndpointRow } from "./repo";

/** Endpoint without its secret: `id, url, events, status, createdAt, updatedAt`. */
export function endpointView(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    events: JSON.parse(e.events) as string[],
    status: e.status,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}

/** Endpoint with its secret: only the create response (rotate returns `{id, secret}`). */
export function endpointWithSecretView(e: EndpointRow) {
  return { ...endpointView(e), secret: e.secret };
}

const isoOrNull = (v: number | null) => (v === null ? null : iso(v));

/** Delivery with the envelope that was (or will be) sent as `payload`. */
export function deliveryView(d: DeliveryRow, body: string) {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventType: d.eventType,
    status: d.status,
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
export function statsView(counts: Record<string, number>) {
  const out: Record<string, number> = { total: 0 };
  for (const s of DELIVERY_STATUSES) {
    out[s] = counts[s] ?? 0;
    out.total! += out[s]!;
  }
  return out as { total: number } & Record<(typeof DELIVERY_STATUSES)[number], number>;
}
