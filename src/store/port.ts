/**
 * The storage port (issue 16): everything Cofre keeps goes through a `Store`.
 *
 * - `store.tx(async (uow) => ...)` runs one unit of work: every write that moves money or state,
 *   with its events, commits together or not at all. A throw inside `fn` rolls the whole unit
 *   back and rethrows. Units never interleave on one connection (SQLite) and are retried on
 *   serialisation failures where the backend has them (PostgreSQL), so `fn` must do
 *   no network I/O and must be safe to run again from the start.
 * - `store.read.<repo>.<method>()` reads outside any unit (never from inside one: use the uow).
 * - `uow.afterCommit(fn)` runs `fn` once the unit's writes are visible to every later reader
 *   (cache invalidation, scheduler wake-ups). It never runs for a unit that rolled back; what it
 *   throws is logged and swallowed.
 * - `store.durable()`: a unit may return before its writes are durable; whatever tells the outside
 *   world about a write (an answer, a provider call, a claimed job) waits for it first.
 *   `store.openRequestScope()` lets the adapter serve an API request's work with its neighbours'.
 *
 * One asynchronous repository per aggregate, with methods in domain terms. Rows cross the port as
 * the plain types of src/store/rows/: no drizzle, SQL or driver type leaves an adapter folder
 * (src/store/sqlite/, src/store/pg/; checked by `bun run check:layers`).
 */
import type { AccountsRepo } from "./port/accounts";
import type { ApiKeysRepo } from "./port/api-keys";
import type { AuthRepo } from "./port/auth";
import type { AuditRepo } from "./port/audit";
import type { ChargesRepo } from "./port/charges";
import type { EventsRepo } from "./port/events";
import type { IdempotencyRepo } from "./port/idempotency";
import type { JobsRepo } from "./port/jobs";
import type { LedgerRepo } from "./port/ledger";
import type { MedRepo } from "./port/med";
import type { PaymentsRepo } from "./port/payments";
import type { PayoutDestinationsRepo, PayoutsRepo } from "./port/payouts";
import type { LiveConnectionReads, PixProviderRepo } from "./port/pix-provider";
import type { CardProviderRepo, LiveCardConnectionReads } from "./port/card-provider";
import type { ReconciliationRepo } from "./port/reconciliation";
import type { RefundsRepo } from "./port/refunds";
import type { RequestLogRepo } from "./port/request-log";
import type { StatsRepo } from "./port/stats";
import type { WebhooksRepo } from "./port/webhooks";
/** One repository per aggregate. */
export interface Repos {
  accounts: AccountsRepo;
  apiKeys: ApiKeysRepo;
  auth: AuthRepo;
  audit: AuditRepo;
  cardProvider: CardProviderRepo;
  charges: ChargesRepo;
  events: EventsRepo;
  idempotency: IdempotencyRepo;
  jobs: JobsRepo;
  ledger: LedgerRepo;
  med: MedRepo;
  payments: PaymentsRepo;
  payoutDestinations: PayoutDestinationsRepo;
  payouts: PayoutsRepo;
  pixProvider: PixProviderRepo;
  reconciliation: ReconciliationRepo;
  refunds: RefundsRepo;
  requestLog: RequestLogRepo;
  stats: StatsRepo;
  webhooks: WebhooksRepo;
}

/** A unit of work: the repositories bound to one transaction, plus its commit hooks. */
export interface Uow extends Repos {
  /** Runs `fn` after this unit commits (never after a rollback). */
  afterCommit(fn: () => void): void;
}

/**
 * What another instance of Cofre may change behind this one's back (PostgreSQL, many instances):
 * `api_keys` (a key written or revoked), `accounts` (account settings), `pix_provider` (a
 * connection saved or deleted), `clock` (the sandbox test clock moved; payload: the shared offset
 * in ms), `jobs` (a job was queued; payload: its due time, epoch ms).
 */
export type ChangeTopic = "api_keys" | "accounts" | "pix_provider" | "card_provider" | "clock" | "jobs";

/** The storage port (see the module header). */
export interface Store {
  /** Runs `fn` as one unit of work and returns its result (see the module header). */
  tx<T>(fn: (uow: Uow) => Promise<T>): Promise<T>;
  /** Repositories for reads outside a unit of work. */
  read: Repos;
  /** Which adapter this is (health output, benches). */
  readonly kind: "sqlite" | "postgres";
  /** The provider registry's synchronous reads of Pix provider connections (src/domain/providers/registry.ts). */
  readonly liveConnections: LiveConnectionReads;
  /** The provider registry's synchronous reads of card provider connections (src/domain/providers/registry.ts). */
  readonly liveCardConnections: LiveCardConnectionReads;
  /**
   * Calls `fn` whenever another instance commits a change of `topic` (payload as ChangeTopic
   * says), and with null after every (re)connection of the notice channel, when notices may have
   * been missed: refresh everything then. SQLite: never (one process owns the database).
   */
  onChange(topic: ChangeTopic, fn: (payload: string | null) => void): void;
  /**
   * Durability of the units that have returned. A unit's `tx()` may resolve before its writes are
   * durable: an adapter may make the units of one moment durable together. `durable()` returns a
   * promise that resolves once every unit returned so far is durable (and rejects when that fails:
   * none of them may be acknowledged), or null when every one already is. Whatever tells the outside
   * world about a write answers only after it: the HTTP response, a provider call that the write
   * announced (a create intent, a payout's send attempt), a job claimed after its enqueue.
   * Synchronous on purpose: null lets a caller answer at once, without a promise.
   */
  durable(): Promise<void> | null;
  /**
   * Opens the request scope of an API request as it arrives (src/app.ts onRequest, on its hot
   * path). The adapter may serve the reads and units of the requests that arrive together in one
   * scope (cheaper reads, one durability point for their writes); nothing changes for the caller
   * but that its units become durable when `durable()` says so. The scope closes on its own, at
   * that durability point. A no-op for an adapter that makes every unit durable as it returns.
   */
  openRequestScope(): void;
  /** True when the database answers and its schema is current (every migration applied): `/readyz`. */
  ready(): Promise<boolean>;
  /** Makes pending work durable and releases the connection(s); PostgreSQL resolves once the pool closed. */
  close(): void | Promise<void>;
}
