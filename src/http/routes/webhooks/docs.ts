/** OpenAPI descriptions of the webhook routes: headers, signatures, retry schedule, webhookUrl rules. */
import { RETRY_SCHEDULE_SECONDS } from "../../../domain/webhooks/model";

const schedule = RETRY_SCHEDULE_SECONDS.map((s, i) => `${i + 2}: +${fmt(s)}`).join(", ");

function fmt(s: number): string {
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${s / 60}m`;
  return `${s / 3600}h`;
}

export const DELIVERY_DOC = [
  "Every event committed is delivered at least once (transactional outbox, durable jobs).",
  "Each delivery is a POST of the exact envelope with headers `X-Cofre-Signature` (canonical and MED events:",
  '`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<rawBody>">`; legacy events: `sha256=<hex HMAC-SHA256 of rawBody>`),',
  "`X-Cofre-Delivery-Id` (= the `wd_` id, stable across retries), `X-Cofre-Event-Type`, and the Standard Webhooks",
  'headers `webhook-id` (= delivery id), `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC of "<id>.<ts>.<body>">`.',
  "The HMAC key is the UTF-8 bytes of the 64-hex secret; the secret current at send time signs each attempt.",
  "2xx = DELIVERED. Other statuses, 3xx (redirects are not followed), timeouts (30 s), connection, DNS or TLS",
  `errors are failed attempts, retried up to maxAttempts (15). Delay before attempt n (+-20% jitter): ${schedule};`,
  "about 3.07 days from first to last attempt. A 429 or 503 with `Retry-After` is rescheduled after that many seconds",
  "(bounded to 1 s - 24 h). After the last attempt the delivery is FAILED (dead letter): re-send it with",
  "POST /v1/webhooks/deliveries/{id}/retry. Live-mode destinations must resolve only to public addresses",
  "(checked at connect time) unless COFRE_WEBHOOK_ALLOW_PRIVATE=1.",
].join(" ");

export const TRANSACTION_URL_DOC = [
  "A transaction created with `webhookUrl` (POST /v1/payments) receives the LEGACY-family events",
  "(`payment.*`) about that transaction at that URL, in addition to subscribed endpoints (skipped when an",
  "ACTIVE endpoint with the same URL already receives the event). Those deliveries have `endpointId: null` and",
  "are signed with the account's transaction-webhook secret (one per mode), issued or replaced by this route and",
  "shown once; until it is first called a secret exists that nobody knows, so call it before relying on webhookUrl.",
].join(" ");
