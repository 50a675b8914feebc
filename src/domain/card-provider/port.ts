/**
 * What the card connection use cases need from the card provider (extensions.md "Live cards and
 * boletos through Stripe"), as a port the composition root fills with the Stripe adapter
 * (src/providers/stripe/gateway.ts): the domain names no provider (test/providers/seam.test.ts).
 */

/** A card connection with its secrets opened: what reaching the provider needs. */
export interface CardConnectionSpec {
  id: string;
  /** API origin (`https://api.stripe.com`, or the simulator's `http://127.0.0.1:12111`). */
  apiBase: string;
  secretKey: string;
  /** The webhook endpoint's signing secret; empty before the endpoint exists. */
  webhookSecret: string;
}

/**
 * The connect step's result: the key's account and Cofre's new webhook endpoint, or the provider's refusal as text
 * (never a secret).
 */
export type CardConnectResult =
  | { ok: true; providerAccountId: string | null; webhookEndpointId: string; webhookSecret: string }
  | { ok: false; message: string };

/** A provider event whose signature verified: its id and type, and the event itself for the provider to read. */
export type VerifiedEvent =
  | { ok: true; id: string; type: string; created: number; event: unknown }
  | { ok: false; message: string };

/** One page of the provider's recent events (the periodic sweep), newest first. */
export type EventPage =
  | { ok: true; events: { id: string; type: string; created: number; event: unknown }[]; hasMore: boolean }
  | { ok: false; message: string };

export interface CardConnectionGateway {
  /** Checks the key (the provider's account of it), then creates the webhook endpoint `webhookUrl` for every event. */
  connect(spec: Omit<CardConnectionSpec, "webhookSecret" | "id">, webhookUrl: string): Promise<CardConnectResult>;
  /** Deletes webhook endpoint `endpointId` (best effort by the caller). */
  disconnect(spec: CardConnectionSpec, endpointId: string): Promise<{ ok: true } | { ok: false; message: string }>;
  /**
   * Verifies `rawBody` against header `signature` with the connection's signing secret (no network; SubtleCrypto).
   * `nowSeconds` is the clock.
   */
  verify(spec: CardConnectionSpec, rawBody: string, signature: string, nowSeconds: number): Promise<VerifiedEvent>;
  /**
   * The events created at or after `sinceSeconds` (one page of up to 100, newest first, `startingAfter` = the last id
   * of the previous page).
   */
  listEvents(spec: CardConnectionSpec, sinceSeconds: number, startingAfter?: string): Promise<EventPage>;
}
