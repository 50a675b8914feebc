/**
 * `Deps`: the shared services the domain and HTTP take (`deps`, or the parts they need) instead of
 * importing singletons, declared by what they use: the storage port, the job queue, clock, logger,
 * config, the providers registry. The composition root (src/deps.ts `createDeps`) builds a value
 * of it (with the scheduler itself as `jobs`), so tests build an isolated set per file.
 */
import type { Config } from "../config";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { Metrics } from "../lib/metrics";
import type { Store } from "../store/port";
import type { ApiKeyCache } from "./api-keys/cache";
import type { RateLimiter } from "./api-keys/rate-limit";
import type { LoginLimiter } from "./auth/throttle";
import type { CardConnectionGateway } from "./card-provider/port";
import type { IdempotencyStore } from "./idempotency/store";
import type { JobQueue } from "./jobs";
import type { PixConnectionGateway } from "./pix-provider/port";
import type { ProviderRegistry } from "./providers/registry";
import type { DeliveryRuntime } from "./webhooks/runtime";

export interface Deps {
  config: Config;
  /** The storage port (src/store/port.ts): every read and unit of work goes through it. */
  store: Store;
  /** Settles once the startup scheduling of the job groups ran (src/jobs/registry.ts); never rejects. */
  startup: Promise<void>;
  clock: Clock;
  logger: Logger;
  /** The durable job queue (./jobs.ts; the scheduler, src/jobs/scheduler.ts). */
  jobs: JobQueue;
  /** The webhook delivery worker's runtime: timeout, fetch, DNS, per-destination caps (./webhooks/runtime.ts). */
  delivery: DeliveryRuntime;
  idempotency: IdempotencyStore;
  /** Per-minute request limits per API key and account (./api-keys/rate-limit.ts). */
  rateLimiter: RateLimiter;
  /** Payment providers per account and mode (sandbox for test keys; live connections later). */
  providers: ProviderRegistry;
  /**
   * The AES-256-GCM key that seals provider secrets (src/lib/secret-box.ts), from
   * COFRE_SECRETS_KEY or `<dataDir>/secrets.key` (read, or generated once, at start).
   */
  secretsKey: Promise<CryptoKey>;
  /** The PSP side of connecting an account's live Pix (the bcb_pix_v2 adapter behind a domain port). */
  pixConnections: PixConnectionGateway;
  /**
   * The card provider side of connecting an account's live cards and boletos (the Stripe adapter behind a domain port).
   */
  cardConnections: CardConnectionGateway;
  /** Resolved API keys (./api-keys/cache.ts): cleared after every unit that writes `api_keys`. */
  apiKeyCache: ApiKeyCache;
  /** Login attempt limits (./auth/throttle.ts). */
  loginThrottle: LoginLimiter;
  /**
   * Several instances on PostgreSQL with COFRE_TEST_CLOCK=1: shares this instance's test-clock
   * advances with the others (src/store/pg/clock-share.ts); the advance route awaits `publish`
   * before answering. On SQLite with COFRE_TEST_CLOCK=1: stores the offset in shared_state, read at
   * the next start (src/store/sqlite/clock-offset.ts). Absent otherwise.
   */
  clockShare?: { publish(): Promise<void> };
  /** Prometheus metrics (src/lib/metrics.ts): live when COFRE_METRICS_TOKEN is set, else no-ops. */
  metrics: Metrics;
}
