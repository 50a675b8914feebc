/**
 * A PSP's payment callback to a connection (extensions.md "Live Pix over the BCB API Pix (v2)":
 * `POST /v1/provider-webhooks/pix/{connection_id}/pix`, body `{pix: [...]}` or the bare array): only a hint. Each
 * entry whose txid is a live charge of the connection's account gets a status check queued now
 * (src/domain/charges/outcomes.ts), which confirms with the connection's own credentials
 * (`GET /pix/{e2eid}`, else `GET /cob/{txid}`) before anything changes; other entries are
 * ignored and logged. No network here, so the route answers at once.
 */
import type { Deps } from "../deps";
import { DomainError, notFound } from "../errors";
import { acceptNotification, type NotificationResult } from "../charges/notifications";
import { TokenBuckets } from "../../lib/token-bucket";
import type { PaymentProvider } from "../providers/types";

/**
 * What one callback may cost (issue 30 §1; extensions.md "Live Pix"): at most this many Pix
 * entries (a PSP sends one Pix per callback, or a few; more is refused with 413
 * `payload_too_large`, nothing read), and at most this many bytes of body.
 */
export const MAX_CALLBACK_ENTRIES = 100;
export const MAX_CALLBACK_BODY_BYTES = 64 * 1024;
/**
 * Callbacks per connection: `CALLBACKS_PER_SECOND` a second, bursts of `CALLBACK_BURST`; more
 * answers 429 `rate_limited` with `Retry-After` (a PSP retries; missed Pix are caught by the polls
 * and the `GET /pix` sweep). In-process token buckets: each instance counts its own.
 */
export const CALLBACKS_PER_SECOND = 50;
export const CALLBACK_BURST = 50;

const buckets = new WeakMap<Deps, TokenBuckets>();

/** Takes one callback token of connection `connectionId`; throws 429 `rate_limited` when none is left. */
function throttle(deps: Deps, connectionId: string): void {
  let b = buckets.get(deps);
  if (!b) buckets.set(deps, (b = new TokenBuckets(CALLBACKS_PER_SECOND, CALLBACK_BURST)));
  const d = b.hit(connectionId, deps.clock.nowMs());
  if (!d.allowed)
    throw new DomainError(
      "rate_limited",
      `Too many callbacks for this connection: at most ${CALLBACKS_PER_SECOND} a second. Retry later.`,
      {
        headers: { "Retry-After": String(d.retryAfterSeconds) },
      },
    );
}

/** A callback let in by admitPixCallback: its connection and the provider that reads it. */
export interface AdmittedCallback {
  conn: NonNullable<Awaited<ReturnType<Deps["store"]["read"]["pixProvider"]["byId"]>>>;
  provider: PaymentProvider;
}

/**
 * Lets a callback to connection `connectionId` in, before its body is read (the HTTP layer calls
 * it first, so a refused callback costs one indexed read): throws 404 `not_found` (no such
 * connection) or 429 `rate_limited` (more than CALLBACKS_PER_SECOND for the connection).
 */
export async function admitPixCallback(deps: Deps, connectionId: string): Promise<AdmittedCallback> {
  const conn = await deps.store.read.pixProvider.byId(connectionId);
  const provider = conn && deps.providers.forConnection(conn.id);
  if (!conn || !provider) throw notFound("Pix provider connection");
  throttle(deps, conn.id);
  return { conn, provider };
}

/**
 * Takes callback `body` addressed to connection `connection` (an id, or a callback already
 * admitted by admitPixCallback; deleted connections too: their charges keep settling). Throws
 * 404 and 429 as admitPixCallback (for an id), 413 `payload_too_large` (more than
 * MAX_CALLBACK_ENTRIES entries), 400 `invalid_request` (no pix list).
 */
export async function acceptPixCallback(
  deps: Deps,
  connection: string | AdmittedCallback,
  body: unknown,
): Promise<NotificationResult> {
  const { conn, provider } = typeof connection === "string" ? await admitPixCallback(deps, connection) : connection;
  const entries = callbackEntries(body);
  if (entries > MAX_CALLBACK_ENTRIES)
    throw new DomainError(
      "payload_too_large",
      `A callback may carry at most ${MAX_CALLBACK_ENTRIES} Pix entries; this one has ${entries}. Send them in several callbacks.`,
    );
  const result = await acceptNotification(deps, { accountId: conn.accountId, livemode: true }, provider, "PIX", body);
  deps.logger.info(
    { connection_id: conn.id, accepted: result.accepted, unknown: result.unknown },
    "pix provider: callback queued for confirmation",
  );
  return result;
}

/** How many entries callback `body` lists (`{pix: [...]}` or the bare array), 0 when it has no list. */
export function callbackEntries(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  const pix = (body as { pix?: unknown } | null)?.pix;
  return Array.isArray(pix) ? pix.length : 0;
}
