/**
 * The composition root's bag of shared services. Domain functions take `deps` (or the parts
 * they need) instead of importing singletons, so tests build an isolated set per file.
 */
import type { Config } from "./config";
import { loadConfig } from "./config";
import { openDb, type Db } from "./db/client";
import { runMigrations } from "./db/migrations";
import { IdempotencyStore } from "./domain/idempotency/store";
import { RateLimiter } from "./http/plugins/rate-limit";
import { ManualClock, SystemClock, type Clock } from "./lib/clock";
import { createLogger, type Logger } from "./lib/logger";
import { Scheduler } from "./jobs/scheduler";
import { registerJobs } from "./jobs/registry";
import { installPaymentAggregates } from "./domain/payments/aggregates";
import { sandboxFaultStore } from "./domain/charges/faults";
import { ProviderRegistry } from "./providers/registry";
import { createSandboxProvider } from "./providers/sandbox";
import { importSecretsKey, resolveSecretsKeyBytes } from "./lib/secret-box";
import { BcbConnectionGateway } from "./providers/bcb-pix-v2/gateway";
import { createConnectionLookup, createLiveLookup } from "./providers/bcb-pix-v2/live";
import { findActiveByAccount, findConnection } from "./domain/pix-provider/repo";
import { openConnection } from "./domain/pix-provider/secrets";
import type { PixConnectionGateway } from "./domain/pix-provider/port";
import type { Store } from "./store/port";
import { createSqliteStore } from "./store/sqlite";
import { MemoryIdempotencyClaims } from "./store/sqlite/claims";
import { MemoryRateLimits } from "./store/sqlite/rate-limits";

export interface Deps {
  config: Config;
  /** The storage port (src/store/port.ts): every read and unit of work goes through it. */
  store: Store;
  /** TRANSITIONAL (issue 16): the SQLite handle, until every aggregate is behind the store. */
  db: Db;
  clock: Clock;
  logger: Logger;
  jobs: Scheduler;
  idempotency: IdempotencyStore;
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
}

export interface DepsOptions {
  config?: Partial<Config>;
  /** Defaults to a SystemClock. Tests pass a ManualClock. */
  clock?: Clock;
  logger?: Logger;
  /** Database folder, or ":memory:" (default: config.dataDir). */
  dataDir?: string;
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
  const db = openDb(config.dataDir);
  runMigrations(db);
  installPaymentAggregates(db);
  // The composition root picks the providers: the domain imports none.
  let gateway: BcbConnectionGateway | undefined;
  const liveOptions = {
    find: (accountId: string) => findActiveByAccount(db, accountId),
    findById: (id: string) => findConnection(db, id),
    open: async (row: NonNullable<ReturnType<typeof findConnection>>) => openConnection(await secretsKey, row),
    gateway: () => gateway!,
  };
  const live = createLiveLookup(liveOptions);
  // Live charges go through the account's active connection; charges a connection created keep
  // settling (polls, callbacks, sweeps, refunds) through it after it was deleted or replaced.
  const providers = new ProviderRegistry({
    config,
    clock,
    sandbox: createSandboxProvider({ faults: sandboxFaultStore(db) }),
    live,
    byConnection: createConnectionLookup(liveOptions),
  });
  gateway = new BcbConnectionGateway(providers.ctx);
  const store = createSqliteStore(db, { logger });
  const deps: Deps = {
    config,
    store,
    db,
    clock,
    logger,
    jobs: new Scheduler(db, clock, logger),
    // Process-wide state behind small interfaces (in memory: one process serves a SQLite database).
    idempotency: new IdempotencyStore(store, clock, new MemoryIdempotencyClaims()),
    rateLimiter: new RateLimiter(clock, config.rateLimitPerMinute, new MemoryRateLimits()),
    providers,
    secretsKey,
    pixConnections: gateway,
  };
  registerJobs(deps);
  return deps;
}

export { ManualClock };
