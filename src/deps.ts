/**
 * The composition root: builds the shared services (`createDeps`), picking the store, the
 * providers and the process-wide state; the interface they satisfy is the domain's
 * (src/domain/deps.ts), so tests build an isolated set per file.
 */
import type { Config } from "./config";
import { loadConfig } from "./config";
import { openDb } from "./store/sqlite/client";
import { runMigrations } from "./store/sqlite/migrations";
import { assertSqliteNotNewer } from "./store/sqlite/schema-version";
import { IdempotencyStore } from "./domain/idempotency/store";
import { RateLimiter } from "./domain/api-keys/rate-limit";
import { ManualClock, SystemClock, type Clock } from "./lib/clock";
import { createLogger, type Logger } from "./lib/logger";
import { Scheduler } from "./jobs/scheduler";
import type { SchedulerDeps } from "./jobs/deps";
import { registerJobs } from "./jobs/registry";
import { installPaymentAggregates } from "./store/sqlite/stats-aggregates";
import { createDeliveryRuntime } from "./domain/webhooks/runtime";
import { sandboxFaultStore } from "./domain/charges/faults";
import { ProviderRegistry } from "./domain/providers/registry";
import { createSandboxProvider } from "./providers/sandbox";
import { importSecretsKey, resolveSecretsKeyBytes } from "./lib/secret-box";
import { BcbConnectionGateway } from "./providers/bcb-pix-v2/gateway";
import { createConnectionLookup, createLiveLookup } from "./providers/bcb-pix-v2/live";
import { openConnection } from "./domain/pix-provider/secrets";
import { openCardConnection } from "./domain/card-provider/secrets";
import { StripeConnectionGateway } from "./providers/stripe/gateway";
import { createCardConnectionLookup, createCardLiveLookup } from "./providers/stripe/live";
import type { CardProviderConnectionRow } from "./store/rows";
import type { Store } from "./store/port";
import { createSqliteStore } from "./store/sqlite";
import { createPgStore, pgStoreOf, type PgStore } from "./store/pg";
import { rawId } from "./lib/ids";
import { PgIdempotencyClaims } from "./store/pg/claims";
import { openPgPool } from "./store/pg/pool";
import type { PixProviderConnectionRow } from "./store/rows";
import { API_KEY_CACHE_MAX, MemoryApiKeyCache } from "./domain/api-keys/cache";
import { LoginThrottle, MemoryLoginBuckets } from "./domain/auth/throttle";
import { PgRateLimits } from "./store/pg/rate-limits";
import { PgLoginBuckets } from "./store/pg/login-buckets";
import { PgClockShare } from "./store/pg/clock-share";
import { sqliteClockOffset } from "./store/sqlite/clock-offset";
import { sqliteStoreOf } from "./store/sqlite/of";
import { MemoryIdempotencyClaims } from "./store/memory/claims";
import { MemoryRateLimits } from "./store/memory/rate-limits";
import { createMetrics, NOOP_METRICS, type Metrics } from "./lib/metrics";
import { metered } from "./providers/metered";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * What createDeps builds: the domain's Deps (src/domain/deps.ts, the interface the domain and HTTP
 * take) with the scheduler itself as `jobs` (src/jobs/deps.ts). For the root (app.ts, main.ts,
 * cli) and tests; the layers below import the domain's.
 */
export type Deps = SchedulerDeps;

/**
 * How long an instance on PostgreSQL serves a cached API key before reading it again (ms): the backstop of revocation
 * notices.
 */
const API_KEY_TTL_MS = 30_000;

export interface DepsOptions {
  config?: Partial<Config>;
  /** Defaults to a SystemClock. Tests pass a ManualClock. */
  clock?: Clock;
  logger?: Logger;
  /** Database folder, or ":memory:" (default: config.dataDir). */
  dataDir?: string;
  /**
   * A store built by the caller (tests: a PostgreSQL store on a database of their own); default:
   * PostgreSQL when `config.databaseUrl` is set, else SQLite in `config.dataDir`.
   */
  store?: Store;
}

/**
 * Process-wide state behind small interfaces: in memory on SQLite (one process serves the
 * database), shared through the database on PostgreSQL (any number of instances). On PostgreSQL
 * another instance's revocation reaches the API-key cache as a notice; the TTL is the backstop.
 */
function processState(pg: PgStore | null, logger: Logger) {
  if (!pg)
    return {
      claims: new MemoryIdempotencyClaims(),
      rateCounts: new MemoryRateLimits(),
      apiKeyCache: new MemoryApiKeyCache(),
      loginBuckets: new MemoryLoginBuckets(),
    };
  return {
    claims: new PgIdempotencyClaims(pg),
    rateCounts: new PgRateLimits(pg.sql, logger),
    apiKeyCache: new MemoryApiKeyCache(API_KEY_CACHE_MAX, API_KEY_TTL_MS),
    loginBuckets: new PgLoginBuckets(pg),
  };
}

/**
 * The store `config` selects: PostgreSQL on `config.databaseUrl` (migrated by the store as it
 * starts, before its first unit or read), else SQLite in `config.dataDir` (migrated now, and the
 * aggregate triggers installed).
 */
function openStore(config: Config, logger: Logger): Store {
  if (config.databaseUrl) {
    // Named, so that other instances can tell from pg_stat_activity whether this one is alive.
    const instanceName = `cofre-${rawId().slice(-16)}`;
    return createPgStore(
      openPgPool(config.databaseUrl, { max: config.databasePoolMax, applicationName: instanceName }),
      { logger, instanceName },
    );
  }
  const db = openDb(config.dataDir);
  assertSqliteNotNewer(db); // a database a newer Cofre migrated stops here (exit 2)
  runMigrations(db);
  installPaymentAggregates(db);
  return createSqliteStore(db, { logger });
}

/**
 * Builds the services, opens the database and applies pending migrations. Job handlers are
 * registered; the scheduler loop is not started (the caller decides: `deps.jobs.start()`).
 */
export function createDeps(opts: DepsOptions = {}): Deps {
  const config: Config = { ...loadConfig(), ...opts.config };
  if (opts.dataDir) config.dataDir = opts.dataDir;
  const clock = opts.clock ?? new SystemClock();
  const logger = opts.logger ?? createLogger(config.logLevel);
  // Read (or generate) the key before anything else: a damaged key file stops the start.
  const secretsKey = importSecretsKey(resolveSecretsKeyBytes(config.secretsKey, config.dataDir));
  const store = opts.store ?? openStore(config, logger);
  const pg = store.kind === "postgres" ? pgStoreOf(store) : null;
  const state = processState(pg, logger);
  // The composition root picks the providers: the domain imports none. The registry's lookups are
  // synchronous (it is consulted inside units of work): the store's liveConnections answer them
  // (SQLite: its one connection; PostgreSQL: every connection row kept in memory).
  const connections = store.liveConnections;
  let gateway: BcbConnectionGateway | undefined;
  const liveOptions = {
    find: (accountId: string) => connections.activeByAccount(accountId),
    findById: (id: string) => connections.byId(id),
    open: async (row: PixProviderConnectionRow) => openConnection(await secretsKey, row),
    gateway: () => gateway!,
  };
  const pixLive = createLiveLookup(liveOptions);
  const pixById = createConnectionLookup(liveOptions);
  // Live CREDIT_CARD and BOLETO go through the account's card connection (Stripe).
  const cards = store.liveCardConnections;
  let cardGateway: StripeConnectionGateway | undefined;
  const cardOptions = {
    find: (accountId: string) => cards.activeByAccount(accountId),
    findById: (id: string) => cards.byId(id),
    open: async (row: CardProviderConnectionRow) => openCardConnection(await secretsKey, row),
    gateway: () => cardGateway!,
  };
  const cardLive = createCardLiveLookup(cardOptions);
  const cardById = createCardConnectionLookup(cardOptions);
  // Live charges go through the account's active connection; charges a connection created keep
  // settling (polls, callbacks, sweeps, refunds) through it after it was deleted or replaced.
  const metrics = config.metricsToken ? createMetrics(scrapeSources(config, () => deps)) : NOOP_METRICS;
  // With metrics on, every provider call is timed (src/providers/metered.ts); off, providers are as built.
  const psp = metrics.enabled
    ? <P extends import("./domain/providers/types").PaymentProvider | undefined>(p: P): P =>
        p ? (metered(p, metrics.pspCall) as P) : p
    : <P>(p: P) => p;
  const providers = new ProviderRegistry({
    config,
    clock,
    sandbox: psp(createSandboxProvider({ faults: sandboxFaultStore(() => deps.store) })),
    live: (accountId, method) => psp(pixLive(accountId, method) ?? cardLive(accountId, method)),
    byConnection: (id) => psp(pixById(id) ?? cardById(id)),
  });
  if (metrics.enabled) timeUnits(store, metrics);
  gateway = new BcbConnectionGateway(providers.ctx);
  cardGateway = new StripeConnectionGateway(providers.ctx);
  const deps: Deps = {
    startup: Promise.resolve(),
    config,
    store,
    clock,
    logger,
    jobs: new Scheduler(store, clock, logger),
    delivery: createDeliveryRuntime(),
    idempotency: new IdempotencyStore(store, clock, state.claims),
    rateLimiter: new RateLimiter(clock, config.rateLimitPerMinute, state.rateCounts),
    providers,
    secretsKey,
    pixConnections: gateway,
    cardConnections: cardGateway,
    apiKeyCache: state.apiKeyCache,
    loginThrottle: new LoginThrottle(clock, state.loginBuckets),
    metrics,
  };
  if (metrics.enabled) deps.jobs.onStart = (kind, lagMs) => metrics.jobStarted(kind, lagMs);
  store.onChange("api_keys", () => deps.apiKeyCache.clear());
  // A job another instance queued wakes this loop at its due time; null (notices lost): look now.
  store.onChange("jobs", (p) => deps.jobs.hint(p === null ? undefined : Number(p)));
  const startups = [registerJobs(deps)];
  if (pg && config.testClock && clock instanceof SystemClock) {
    const share = new PgClockShare(pg, clock);
    deps.clockShare = share;
    // After the store's start: on a database not migrated yet, shared_state does not exist before it
    // (a store that fails to start reports that itself).
    startups.push(
      pg.started.then(
        () => share.pull().catch((err) => logger.error({ err }, "reading the shared test clock failed")),
        () => {},
      ),
    );
  } else if (!pg && config.testClock && clock instanceof SystemClock) {
    // SQLite keeps the offset in shared_state too: a restart (or an import to PostgreSQL) resumes it.
    deps.clockShare = sqliteClockOffset(sqliteStoreOf(store), clock);
  }
  deps.startup = Promise.all(startups).then(() => {});
  return deps;
}

/** What the metrics scrape reads (src/lib/metrics.ts): job queues, PSP certificates, the newest backup. */
function scrapeSources(config: Config, deps: () => Deps) {
  return {
    now: () => deps().clock.nowMs(),
    queues: () => deps().store.read.jobs.queueStats(deps().clock.nowMs()),
    certificates: async () =>
      (await deps().store.read.pixProvider.listActive()).map((c) => ({
        type: c.type,
        expiresAt: c.certificateExpiresAt,
      })),
    lastBackupAt: async () => {
      if (!config.backupDir) return null;
      let newest: number | null = null;
      try {
        for (const f of readdirSync(config.backupDir))
          if (/^cofre-backup-.*\.tar\.gz$/.test(f))
            newest = Math.max(newest ?? 0, statSync(join(config.backupDir, f)).mtimeMs);
      } catch {
        return null;
      }
      return newest;
    },
    backupIntervalSeconds: Math.round((config.backupIntervalMs ?? 0) / 1000),
  };
}

/** Times every unit of work of `store` (cofre_db_transaction_duration_seconds). */
function timeUnits(store: Store, metrics: Metrics): void {
  const tx = store.tx.bind(store);
  store.tx = ((...args: Parameters<Store["tx"]>) => {
    const started = performance.now();
    return tx(...args).then(
      (v) => {
        metrics.tx(performance.now() - started, true);
        return v;
      },
      (err: unknown) => {
        metrics.tx(performance.now() - started, false);
        throw err;
      },
    );
  }) as Store["tx"];
}

export { ManualClock };
