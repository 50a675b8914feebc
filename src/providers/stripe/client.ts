/**
 * The official `stripe` package as Cofre's Stripe client (issue 26 §1: no hand-written HTTP or
 * HMAC for Stripe): one `Stripe` instance per connection version, pointed at the connection's
 * `api_base` (host, port, protocol: Stripe's API or `cofre stripe-sim`), sending its requests
 * through the provider context's fetch, and the webhook signature check (`constructEvent`).
 */
import Stripe from "stripe";
import type { HttpFetch } from "../../domain/providers/types";

/** How long one Stripe call may take before it counts as unavailable (ms). */
export const STRIPE_TIMEOUT_MS = 15_000;
/** Stripe's default signature tolerance (seconds between the event's `t` and its receipt). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

// Bun loads the package's web build: its signature check runs on SubtleCrypto (asynchronous).
const crypto = Stripe.createSubtleCryptoProvider();

/** A client of the API at `apiBase` (an origin) with `secretKey`. No automatic retries: jobs retry. */
export function stripeClient(apiBase: string, secretKey: string, fetch: HttpFetch): Stripe {
  const u = new URL(apiBase);
  const protocol = u.protocol === "http:" ? "http" : "https";
  return new Stripe(secretKey, {
    host: u.hostname,
    port: u.port ? Number(u.port) : protocol === "http" ? 80 : 443,
    protocol,
    httpClient: Stripe.createFetchHttpClient(fetch as typeof globalThis.fetch),
    maxNetworkRetries: 0,
    timeout: STRIPE_TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: "Cofre" },
  });
}

/**
 * Verifies and parses a webhook body (rejects with Stripe's SignatureVerificationError). `nowSeconds` is the receipt
 * time.
 */
export function constructEvent(
  rawBody: string,
  signature: string,
  secret: string,
  nowSeconds: number,
): Promise<Stripe.Event> {
  return Stripe.webhooks.constructEventAsync(
    rawBody,
    signature,
    secret,
    SIGNATURE_TOLERANCE_SECONDS,
    crypto,
    nowSeconds,
  );
}

/** The text of a Stripe failure safe to show (its type, code and message; never a key: Stripe masks keys). */
export function stripeFailureText(err: unknown): string {
  if (err instanceof Stripe.errors.StripeError) {
    const status = err.statusCode ? `HTTP ${err.statusCode} ` : "";
    return `${status}${err.type}${err.code ? ` ${err.code}` : ""}: ${err.message}`;
  }
  return (err as Error)?.message ?? String(err);
}

export { Stripe };
