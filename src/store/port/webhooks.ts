/**
 * The webhooks repository of the storage port (see src/store/port.ts): endpoints, deliveries, their
 * attempts and the per-transaction `webhookUrl` secrets (interface.md "Webhooks"). Times in epoch ms.
 */
import type { NewWebhookDeliveryRow, WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from "../rows";

/** Account and mode every scoped query is limited to. */
export interface WebhookScope {
  accountId: string;
  livemode: boolean;
}

/** Filters of the delivery listing (all optional, ANDed). */
export interface DeliveryFilters {
  status?: string;
  eventType?: string;
  endpointId?: string;
  /** Deliveries of this transaction's events (raw id); the dashboard's payment detail. */
  transactionId?: string;
}

/** A delivery with the envelope (JSON text) of its event. */
export interface DeliveryWithBody {
  d: WebhookDeliveryRow;
  body: string;
}

/** What the fan-out reads of each subscribed ACTIVE endpoint: `events` is the JSON array of names. */
export interface ActiveEndpoint {
  id: string;
  url: string;
  events: string;
}

/** A delivery as the worker claims it: with its endpoint (nulls when deleted) and its event's body (null when gone). */
export interface DeliveryClaimView {
  d: WebhookDeliveryRow;
  epStatus: string | null;
  epUrl: string | null;
  epSecret: string | null;
  body: string | null;
}

/** One attempt being started: the delivery goes PROCESSING with `attempts`, the attempt row is `sending`. */
export interface AttemptStart {
  deliveryId: string;
  attemptId: string;
  /** 1-based number of this attempt (the delivery's new `attempts`). */
  attempt: number;
  trigger: "manual" | "scheduled";
  now: number;
}

/** The outcome of an attempt, written to the delivery and its attempt row. */
export interface AttemptOutcome {
  deliveryId: string;
  attemptId: string;
  status: "DELIVERED" | "FAILED" | "PENDING";
  attemptStatus: "succeeded" | "failed";
  /** DispatchOutcome kind (delivered, http_error, timeout, ...). */
  outcome: string;
  statusCode: number | null;
  error: string | null;
  /** At most 2048 characters. */
  responseBody: string | null;
  durationMs: number;
  /** The next attempt's time, or null when the delivery ends. */
  nextRetryAt: number | null;
  deliveredAt: number | null;
  now: number;
}

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. */
export interface WebhooksRepo {
  /** Stores a new endpoint. */
  insertEndpoint(row: WebhookEndpointRow): Promise<void>;
  /** Endpoints of the scope, newest first. */
  listEndpoints(s: WebhookScope): Promise<WebhookEndpointRow[]>;
  /** The endpoint `id` when it belongs to the scope, else undefined. */
  findEndpoint(s: WebhookScope, id: string): Promise<WebhookEndpointRow | undefined>;
  /** The endpoint `id` whatever its scope, else undefined. */
  endpointById(id: string): Promise<WebhookEndpointRow | undefined>;
  /** Changes the fields of endpoint `id` given in `set`. */
  updateEndpoint(id: string, set: Partial<WebhookEndpointRow>): Promise<void>;
  /** Deletes endpoint `id` (its deliveries keep their rows). */
  deleteEndpoint(id: string): Promise<void>;
  /** Subscribed ACTIVE endpoints of (accountId, livemode). Hot path: read for every event emitted. */
  activeEndpoints(accountId: string, livemode: boolean): Promise<ActiveEndpoint[]>;

  /** Stores new deliveries (status PENDING, attempts 0). Hot path: the fan-out of each stored event. */
  insertDeliveries(rows: NewWebhookDeliveryRow[]): Promise<void>;
  /** Delivery `id`, else undefined. */
  deliveryById(id: string): Promise<WebhookDeliveryRow | undefined>;
  /** Changes the fields of delivery `id` given in `set`. */
  updateDelivery(id: string, set: Partial<WebhookDeliveryRow>): Promise<void>;
  /** Applies `set` to each delivery of `ids`. */
  updateDeliveries(ids: string[], set: Partial<WebhookDeliveryRow>): Promise<void>;
  /** Ids of the endpoint's deliveries in one of `statuses`. */
  deliveryIdsOfEndpoint(endpointId: string, statuses: string[]): Promise<string[]>;
  /** A page of the scope's deliveries (newest first) with their envelopes, and the total matching. */
  pageDeliveries(
    s: WebhookScope,
    f: DeliveryFilters,
    limit: number,
    offset: number,
  ): Promise<{ rows: DeliveryWithBody[]; total: number }>;
  /** Count of the scope's deliveries per status (absent statuses are absent). */
  countByStatus(s: WebhookScope): Promise<Record<string, number>>;

  /** The worker's first look at a delivery (no lock): status and destination, else undefined. Hot path. */
  peekDelivery(
    id: string,
  ): Promise<{ status: string; endpointId: string | null; targetUrl: string | null } | undefined>;
  /** The delivery with its endpoint and event body, for claiming an attempt. Hot path. */
  claimView(id: string): Promise<DeliveryClaimView | undefined>;
  /** Starts an attempt: the delivery PROCESSING (next retry cleared) and a `sending` attempt row. Hot path. */
  startAttempt(a: AttemptStart): Promise<void>;
  /**
   * Records an attempt's outcome. The delivery is updated only while still PROCESSING (a DELETE may
   * have cancelled it meanwhile); the attempt row always, with `nextAttemptAt` = `o.nextRetryAt`
   * only when the delivery was updated. Returns whether it was. Hot path.
   */
  finishAttempt(o: AttemptOutcome): Promise<boolean>;
  /**
   * Marks the delivery's attempts still `sending` (the worker stopped mid-attempt) as failed, outcome `interrupted`.
   */
  failOpenAttempts(deliveryId: string, now: number, error: string): Promise<void>;
  /** Attempts of a delivery, oldest first. */
  attemptsOf(deliveryId: string): Promise<WebhookAttemptRow[]>;

  /** The scope's transaction-webhook secret (64 hex), else undefined. */
  transactionSecret(s: WebhookScope): Promise<string | undefined>;
  /** Inserts or replaces the scope's transaction-webhook secret (rotation). */
  putTransactionSecret(s: WebhookScope, secret: string, now: number): Promise<void>;
  /**
   * Stores `secret` as the scope's transaction-webhook secret unless it has one, and returns the
   * one kept: first writer wins, so two first uses at once (two instances) sign with one secret.
   */
  keepTransactionSecret(s: WebhookScope, secret: string, now: number): Promise<string>;
}
