/** Environment -> typed configuration (extensions.md "Running it"). */
import { resolveSecretsKeyBytes } from "./lib/secret-box";
import { parsePgUrl } from "./lib/pg-url";
import { parseTrustedProxies } from "./lib/trusted-proxies";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /**
   * COFRE_DATABASE_URL: `postgres://...` makes Cofre use PostgreSQL instead of the embedded SQLite
   * database in `dataDir` (extensions.md "PostgreSQL and many instances"); null = SQLite.
   */
  databaseUrl: string | null;
  /** COFRE_DATABASE_POOL: connections the PostgreSQL pool opens at most (default 20). */
  databasePoolMax: number;
  publicUrl: string;
  checkoutUrlBase: string;
  operatorToken: string | null;
  /**
   * COFRE_METRICS_TOKEN: enables GET /metrics (Bearer token); null = metrics off and /metrics 404 (extensions.md
   * "Operations").
   */
  metricsToken: string | null;
  testClock: boolean;
  webhookAllowPrivate: boolean;
  /** Requests per API key per minute; 0 disables the limiter. */
  rateLimitPerMinute: number;
  /**
   * COFRE_TRUSTED_PROXIES: addresses and CIDR blocks of the merchant's own load balancers and
   * proxies, whose X-Forwarded-For is believed for the client address (src/lib/trusted-proxies.ts);
   * empty (the default) = the socket peer is the client.
   */
  trustedProxies: string[];
  logLevel: string;
  /** Largest accepted request body in bytes (413 above it). */
  maxBodyBytes: number;
  /** Days the request log keeps a row (pruned hourly); 0 keeps every row. */
  requestLogRetentionDays: number;
  /**
   * Milliseconds a request body may take to arrive in full (408 `request_timeout` after it);
   * evidence uploads get ten times this. From COFRE_BODY_TIMEOUT_SECONDS (default 30 s).
   */
  bodyTimeoutMs: number;
  /**
   * Optional root of stored files (MED evidence). Default: `<dataDir>/files`; with an in-memory
   * database (":memory:", tests) a fresh temporary folder per process. Not read from the environment.
   */
  storageDir?: string;
  /**
   * COFRE_SECRETS_KEY: base64 of the 32-byte AES-256-GCM key that seals provider secrets at rest
   * (src/lib/secret-box.ts); null = the key file `<dataDir>/secrets.key`, generated once (0600).
   */
  secretsKey: string | null;
  /**
   * Test only (COFRE_TEST_CRASH_AFTER_PSP_CREATE=1): the process SIGKILLs itself right after a
   * live PSP answered a create and before the charge is committed, so tests can show a crash
   * leaves one cob and a usable charge (src/domain/charges/intents.ts). Never set it in production.
   */
  testCrashAfterPspCreate: boolean;
  /**
   * Test only (COFRE_TEST_CRASH_AFTER_PSP_SEND=1): the process SIGKILLs itself right after a live
   * PSP answered the send of a cashout refund and before its outcome is committed (tests show the
   * restarted job makes no second send). Never set it in production.
   */
  testCrashAfterPspSend: boolean;
  /**
   * Scheduled SQLite backups (extensions.md "Operations", src/ops/schedule.ts): COFRE_BACKUP_DIR
   * (null = none, and no backup before migrations), COFRE_BACKUP_INTERVAL (`30m`, `6h`, `1d`;
   * default `24h`; `0` = only the backup before migrations), COFRE_BACKUP_KEEP (newest N kept, default 7).
   */
  backupDir: string | null;
  /** Milliseconds between scheduled backups; 0 = none on a schedule. */
  backupIntervalMs: number;
  backupKeep: number;
}

/** Thrown for an environment value that cannot be used; the message names the variable. */
export class ConfigError extends Error {}

function int(
  env: Record<string, string | undefined>,
  name: string,
  dflt: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return dflt;
  if (!/^\d{1,15}$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** COFRE_SECRETS_KEY as given (checked: base64, standard or url-safe, of exactly 32 bytes), or null when unset. */
function secretsKey(env: Record<string, string | undefined>): string | null {
  const raw = env.COFRE_SECRETS_KEY;
  if (raw === undefined || raw === "") return null;
  try {
    resolveSecretsKeyBytes(raw, ":memory:");
  } catch {
    throw new ConfigError("COFRE_SECRETS_KEY must be base64 of 32 bytes (e.g. `openssl rand -base64 32`)");
  }
  return raw;
}

/** COFRE_TRUSTED_PROXIES checked (src/lib/trusted-proxies.ts), [] when unset. */
function trustedProxies(env: Record<string, string | undefined>): string[] {
  try {
    return parseTrustedProxies(env.COFRE_TRUSTED_PROXIES ?? "");
  } catch (err) {
    throw new ConfigError(
      `COFRE_TRUSTED_PROXIES: ${(err as Error).message} (give addresses or CIDR blocks, comma-separated)`,
    );
  }
}

/** COFRE_DATABASE_URL as given (checked: a postgres:// URL naming a database), or null when unset. */
function databaseUrl(env: Record<string, string | undefined>): string | null {
  const raw = env.COFRE_DATABASE_URL;
  if (raw === undefined || raw === "") return null;
  try {
    parsePgUrl(raw);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return raw;
}

const INTERVAL_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** COFRE_BACKUP_INTERVAL (`90s`, `30m`, `6h`, `1d`; `0` = off) in milliseconds; default 24 hours. */
function backupInterval(env: Record<string, string | undefined>): number {
  const raw = env.COFRE_BACKUP_INTERVAL;
  if (raw === undefined || raw === "") return INTERVAL_UNITS.d!;
  if (raw === "0") return 0;
  const m = /^(\d{1,6})(s|m|h|d)$/.exec(raw);
  if (!m || Number(m[1]) === 0)
    throw new ConfigError(
      `COFRE_BACKUP_INTERVAL must be a number and a unit (s, m, h, d) such as 6h or 30m, or 0, got "${raw}"`,
    );
  return Number(m[1]) * INTERVAL_UNITS[m[2]!]!;
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/**
 * Reads the configuration from `env` (variables and defaults of extensions.md "Running it", plus
 * COFRE_MAX_BODY_BYTES, COFRE_REQUEST_LOG_RETENTION_DAYS, COFRE_BODY_TIMEOUT_SECONDS, COFRE_SECRETS_KEY,
 * COFRE_DATABASE_URL, COFRE_DATABASE_POOL, COFRE_TRUSTED_PROXIES). Throws ConfigError naming the variable for a value it cannot use.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = int(env, "PORT", 3000, 0, 65535);
  const logLevel = env.LOG_LEVEL || "info";
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  const publicUrl = (env.COFRE_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  return {
    port,
    host: env.HOST || "0.0.0.0",
    dataDir: env.COFRE_DATA_DIR || "./data",
    databaseUrl: databaseUrl(env),
    databasePoolMax: int(env, "COFRE_DATABASE_POOL", 20, 1, 1000),
    publicUrl,
    checkoutUrlBase: (env.COFRE_CHECKOUT_URL_BASE || `${publicUrl}/c`).replace(/\/+$/, ""),
    operatorToken: env.COFRE_OPERATOR_TOKEN || null,
    metricsToken: env.COFRE_METRICS_TOKEN || null,
    testClock: env.COFRE_TEST_CLOCK === "1",
    webhookAllowPrivate: env.COFRE_WEBHOOK_ALLOW_PRIVATE === "1",
    rateLimitPerMinute: int(env, "COFRE_RATE_LIMIT_PER_MINUTE", 6000),
    trustedProxies: trustedProxies(env),
    logLevel,
    maxBodyBytes: int(env, "COFRE_MAX_BODY_BYTES", 1024 * 1024, 1),
    requestLogRetentionDays: int(env, "COFRE_REQUEST_LOG_RETENTION_DAYS", 30),
    bodyTimeoutMs: int(env, "COFRE_BODY_TIMEOUT_SECONDS", 30, 1, 3600) * 1000,
    secretsKey: secretsKey(env),
    testCrashAfterPspCreate: env.COFRE_TEST_CRASH_AFTER_PSP_CREATE === "1",
    testCrashAfterPspSend: env.COFRE_TEST_CRASH_AFTER_PSP_SEND === "1",
    backupDir: env.COFRE_BACKUP_DIR || null,
    backupIntervalMs: backupInterval(env),
    backupKeep: int(env, "COFRE_BACKUP_KEEP", 7, 1, 100_000),
  };
}
