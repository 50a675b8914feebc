/** Environment -> typed configuration (extensions.md "Running it"). */

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  checkoutUrlBase: string;
  operatorToken: string | null;
  testClock: boolean;
  webhookAllowPrivate: boolean;
  /** Requests per API key per minute; 0 disables the limiter. */
  rateLimitPerMinute: number;
  logLevel: string;
  /** Largest accepted request body in bytes (413 above it). */
  maxBodyBytes: number;
}

/** Thrown for an environment value that cannot be used; the message names the variable. */
export class ConfigError extends Error {}

function int(env: Record<string, string | undefined>, name: string, dflt: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return dflt;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min) throw new ConfigError(`${name} must be >= ${min}`);
  return n;
}

/** Reads the configuration from `env` (defaults per extensions.md). Throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = int(env, "PORT", 3000);
  const publicUrl = (env.COFRE_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  return {
    port,
    host: env.HOST || "0.0.0.0",
    dataDir: env.COFRE_DATA_DIR || "./data",
    publicUrl,
    checkoutUrlBase: (env.COFRE_CHECKOUT_URL_BASE || `${publicUrl}/c`).replace(/\/+$/, ""),
    operatorToken: env.COFRE_OPERATOR_TOKEN || null,
    testClock: env.COFRE_TEST_CLOCK === "1",
    webhookAllowPrivate: env.COFRE_WEBHOOK_ALLOW_PRIVATE === "1",
    rateLimitPerMinute: int(env, "COFRE_RATE_LIMIT_PER_MINUTE", 6000),
    logLevel: env.LOG_LEVEL || "info",
    maxBodyBytes: int(env, "COFRE_MAX_BODY_BYTES", 1024 * 1024, 1),
  };
}
