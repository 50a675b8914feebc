/**
 * `cofre stripe-sim init DIR`: the simulator folder (config.json `{host, port}`, stripe-sim.db
 * with one test account) and the operator body card-provider.json (`{type: "stripe", secret_key,
 * api_base}`, mode 0600; extensions.md "Live cards and boletos through Stripe"), plus the curl
 * command that connects a Cofre account. Running the simulator on a folder without init creates
 * the same files.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createAccount } from "./control";
import { StripeSimStore } from "./store";

export const DEFAULT_PORT = 12111;
export const FILES = { config: "config.json", db: "stripe-sim.db", body: "card-provider.json" } as const;

export interface SimConfig {
  host: string;
  port: number;
}

/** The operator route's body as the simulator fills it. */
export interface CardProviderBody {
  type: "stripe";
  secret_key: string;
  api_base: string;
}

export interface InitResult {
  dir: string;
  config: SimConfig;
  body: CardProviderBody;
  bodyFile: string;
  command: string;
}

/** `http://host:port` of a config. */
export function apiBase(c: SimConfig): string {
  return `http://${c.host.includes(":") ? `[${c.host}]` : c.host}:${c.port}`;
}

/** Reads config.json (defaults when absent). */
export function loadConfig(dir: string): SimConfig {
  const file = join(dir, FILES.config);
  if (!existsSync(file)) return { host: "127.0.0.1", port: DEFAULT_PORT };
  return JSON.parse(readFileSync(file, "utf8")) as SimConfig;
}

/** The store's first account, created when the store has none. */
export function ensureAccount(store: StripeSimStore): { id: string; secret_key: string } {
  const first = store.accounts()[0];
  if (first) return { id: first.id, secret_key: first.secret_key };
  return createAccount(store, Date.now());
}

/** Writes (or completes) the folder; keeps an existing database and key. */
export function initSimDir(
  dirIn: string,
  opts: { port?: number; host?: string; cofreUrl?: string; accountId?: string } = {},
): InitResult {
  const dir = resolve(dirIn);
  mkdirSync(dir, { recursive: true });
  // A secret key: `git status` must not offer it to commit (issue 28 §3).
  writeFileSync(join(dir, ".gitignore"), "# written by cofre stripe-sim init: secrets, never commit\n*\n");
  const config: SimConfig = { host: opts.host ?? "127.0.0.1", port: opts.port ?? DEFAULT_PORT };
  writeFileSync(join(dir, FILES.config), `${JSON.stringify(config, null, 2)}\n`);
  const store = new StripeSimStore(join(dir, FILES.db));
  let acct;
  try {
    acct = ensureAccount(store);
  } finally {
    store.close();
  }
  const body: CardProviderBody = { type: "stripe", secret_key: acct.secret_key, api_base: apiBase(config) };
  const bodyFile = join(dir, FILES.body);
  writeFileSync(bodyFile, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  chmodSync(bodyFile, 0o600);
  const cofre = (opts.cofreUrl ?? "http://localhost:3000").replace(/\/+$/, "");
  const command = [
    `curl -sS -X PUT '${cofre}/v1/operator/accounts/${opts.accountId ?? "ACCOUNT_ID"}/card-provider' \\`,
    `  -H "Authorization: Bearer $COFRE_OPERATOR_TOKEN" -H 'Content-Type: application/json' \\`,
    `  --data @'${bodyFile}'`,
  ].join("\n");
  return { dir, config, body, bodyFile, command };
}
