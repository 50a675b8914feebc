/**
 * Delivery headers and signatures (interface.md "Headers and signatures"; extensions.md).
 * Key for every HMAC: the UTF-8 bytes of the 64-hex secret. Canonical and MED events:
 * `X-Cofre-Signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>` (Stripe scheme); legacy:
 * `sha256=<hex HMAC-SHA256(body)>`. Every delivery also carries the Standard Webhooks headers
 * `webhook-id` (= delivery id), `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC of
 * "<id>.<timestamp>.<body>">`.
 */
import { hmacBase64, hmacHex } from "../../lib/crypto";

export interface SignInput {
  deliveryId: string;
  eventType: string;
  family: string;
  /** The exact raw body that is sent. */
  body: string;
  secret: string;
  /** Unix seconds. */
  timestamp: number;
}

/** The `X-Cofre-Signature` value for `input`. */
export function cofreSignature(input: SignInput): string {
  if (input.family === "legacy") return `sha256=${hmacHex(input.secret, input.body)}`;
  return `t=${input.timestamp},v1=${hmacHex(input.secret, `${input.timestamp}.${input.body}`)}`;
}

/** The `webhook-signature` value (Standard Webhooks) for `input`. */
export function standardSignature(input: SignInput): string {
  return `v1,${hmacBase64(input.secret, `${input.deliveryId}.${input.timestamp}.${input.body}`)}`;
}

/** Every header of a delivery request. */
export function deliveryHeaders(input: SignInput): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "User-Agent": "Cofre-Webhooks/1.0",
    "X-Cofre-Signature": cofreSignature(input),
    "X-Cofre-Delivery-Id": input.deliveryId,
    "X-Cofre-Event-Type": input.eventType,
    "webhook-id": input.deliveryId,
    "webhook-timestamp": String(input.timestamp),
    "webhook-signature": standardSignature(input),
  };
}
