/**
 * `cofre psp-sim init DIR`: writes the simulator's folder (certificates, config.json, the
 * operator bodies pix-provider.json (`bcb_pix_v2`) and pix-provider-efi.json (`efi`, api_url = the
 * origin), psp-sim.db with one client) and builds the operator `PUT
 * /v1/operator/accounts/{account_id}/pix-provider` command (body as extensions.md "Live Pix over
 * the BCB API Pix (v2)" pins it). `loadSimDir` reads it back for `cofre psp-sim`.
 */
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cnpj } from "cpf-cnpj-validator";
import { createSimPki, type SimPki } from "./certs";
import { type ClientRow, SimStore } from "./store";

/** Base path of the API Pix routes (`api_url` = `https://host:port/api/v2`). */
export const API_PREFIX = "/api/v2";
/** OAuth2 token endpoint path (`token_url`). */
export const TOKEN_PATH = "/oauth/token";
export const DEFAULT_PORT = 8443;

/** config.json: where the simulator listens and who its one seeded client is. */
export interface SimConfig {
  port: number;
  host: string;
  client_id: string;
  pix_key: string;
  receiver: { name: string; cnpj: string; city: string };
}

/**
 * The operator route's body (extensions.md "Live Pix over the BCB API Pix (v2)") as the simulator
 * fills it: its own CA in `ca_certificates`, none of the optional PSP differences. Declared here
 * (the simulator is its own program and imports no Cofre layer); test/psp-sim/support.ts checks
 * that it stays assignable to the domain's ConnectInput.
 */
export interface PixProviderBody {
  type: "bcb_pix_v2" | "efi";
  api_url: string;
  token_url: string;
  client_id: string;
  client_secret: string;
  certificate: string;
  private_key: string;
  ca_certificates: string;
  pix_key: string;
}

export interface InitOptions {
  port?: number;
  /** Host written into api_url/token_url (default 127.0.0.1); also a SAN of the server certificate. */
  host?: string;
  /** Extra DNS names / IPs for the server certificate. */
  names?: string[];
  /** Cofre's base URL for the printed command (default http://localhost:3000). */
  cofreUrl?: string;
  /** Account id for the printed command (default the literal ACCOUNT_ID). */
  accountId?: string;
}

export interface InitResult {
  dir: string;
  config: SimConfig;
  body: PixProviderBody;
  /** The same connection as `type: "efi"` (api_url = the origin), written to pix-provider-efi.json. */
  efiBody: PixProviderBody;
  efiBodyFile: string;
  /** The curl command that connects an account to the simulator. */
  command: string;
}

const FILES = {
  caCert: "ca.crt",
  caKey: "ca.key",
  serverCert: "server.crt",
  serverKey: "server.key",
  clientCert: "client.crt",
  clientKey: "client.key",
  callbackCert: "callback.crt",
  callbackKey: "callback.key",
  config: "config.json",
  body: "pix-provider.json",
  efiBody: "pix-provider-efi.json",
  db: "psp-sim.db",
} as const;

/** `host:port` of a listener (an IPv6 host in brackets). */
export function hostPort(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** SHA-256 hex of a client secret (the store keeps no secret in clear). */
export function secretHash(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Name of the receiver a new client gets unless one is given. */
export const DEFAULT_RECEIVER_NAME = "Loja Cofre psp-sim";

/** A new client (receiver) row owning `pixKey`, and its secret in clear (the row keeps its hash only). */
export function newClient(name: string, pixKey: string, nowMs: number): { row: ClientRow; secret: string } {
  const secret = randomBytes(24).toString("base64url");
  const row: ClientRow = {
    client_id: `psp-sim-${randomBytes(6).toString("hex")}`,
    secret_sha256: secretHash(secret),
    name,
    cnpj: cnpj.generate(),
    city: "SAO PAULO",
    pix_keys: JSON.stringify([pixKey]),
    created_ms: nowMs,
  };
  return { row, secret };
}

function write(dir: string, name: string, text: string, secret = false): void {
  writeFileSync(join(dir, name), text, { mode: secret ? 0o600 : 0o644 });
  if (secret) chmodSync(join(dir, name), 0o600);
}

/**
 * Creates DIR (if needed) and writes every file. Throws when DIR already holds a simulator
 * (`ca.crt`), so a second init never replaces certificates a connection already uses.
 */
export async function initSimDir(dirArg: string, opts: InitOptions = {}): Promise<InitResult> {
  const dir = resolve(dirArg);
  if (existsSync(join(dir, FILES.caCert)))
    throw new Error(`${dir} already holds a psp-sim (ca.crt); choose an empty folder`);
  mkdirSync(dir, { recursive: true });
  // Keys and secrets: `git status` must not offer them to commit (issue 28 §3).
  writeFileSync(
    join(dir, ".gitignore"),
    "# written by cofre psp-sim init: private keys and secrets, never commit\n*\n",
  );
  const port = opts.port ?? DEFAULT_PORT;
  const host = opts.host ?? "127.0.0.1";
  const pki = await createSimPki([host, ...(opts.names ?? [])]);
  write(dir, FILES.caCert, pki.ca.cert);
  write(dir, FILES.caKey, pki.ca.key, true);
  write(dir, FILES.serverCert, pki.server.cert);
  write(dir, FILES.serverKey, pki.server.key, true);
  write(dir, FILES.clientCert, pki.client.cert);
  write(dir, FILES.clientKey, pki.client.key, true);
  write(dir, FILES.callbackCert, pki.callback.cert);
  write(dir, FILES.callbackKey, pki.callback.key, true);

  const pixKey = crypto.randomUUID();
  const { row, secret: clientSecret } = newClient(DEFAULT_RECEIVER_NAME, pixKey, Date.now());
  const config: SimConfig = {
    port,
    host,
    client_id: row.client_id,
    pix_key: pixKey,
    receiver: { name: row.name, cnpj: row.cnpj, city: row.city },
  };
  write(dir, FILES.config, `${JSON.stringify(config, null, 2)}\n`);
  const origin = `https://${hostPort(host, port)}`;
  const body: PixProviderBody = {
    type: "bcb_pix_v2",
    api_url: origin + API_PREFIX,
    token_url: origin + TOKEN_PATH,
    client_id: config.client_id,
    client_secret: clientSecret,
    certificate: pki.client.cert,
    private_key: pki.client.key,
    ca_certificates: pki.ca.cert,
    pix_key: config.pix_key,
  };
  write(dir, FILES.body, `${JSON.stringify(body, null, 2)}\n`, true);
  const efiBody: PixProviderBody = { ...body, type: "efi", api_url: origin };
  write(dir, FILES.efiBody, `${JSON.stringify(efiBody, null, 2)}\n`, true);

  const store = new SimStore(join(dir, FILES.db));
  try {
    store.insertClient(row);
  } finally {
    store.close();
  }
  chmodSync(join(dir, FILES.db), 0o600); // client secret hashes and tokens
  const cofre = (opts.cofreUrl ?? "http://localhost:3000").replace(/\/+$/, "");
  const command = [
    `curl -sS -X PUT '${cofre}/v1/operator/accounts/${opts.accountId ?? "ACCOUNT_ID"}/pix-provider' \\`,
    `  -H "Authorization: Bearer $COFRE_OPERATOR_TOKEN" -H 'Content-Type: application/json' \\`,
    `  --data @'${join(dir, FILES.body)}'`,
  ].join("\n");
  return { dir, config, body, efiBody, efiBodyFile: join(dir, FILES.efiBody), command };
}

/** What `cofre psp-sim` needs from DIR. Throws (naming the missing file) when DIR is not initialised. */
export function loadSimDir(dirArg: string): { dir: string; config: SimConfig; pki: SimPki; dbFile: string } {
  const dir = resolve(dirArg);
  const read = (name: string) => {
    const path = join(dir, name);
    if (!existsSync(path)) throw new Error(`${path} is missing; run \`cofre psp-sim init ${dirArg}\` first`);
    return readFileSync(path, "utf8");
  };
  const pki: SimPki = {
    ca: { cert: read(FILES.caCert), key: read(FILES.caKey) },
    server: { cert: read(FILES.serverCert), key: read(FILES.serverKey) },
    client: { cert: read(FILES.clientCert), key: read(FILES.clientKey) },
    callback: { cert: read(FILES.callbackCert), key: read(FILES.callbackKey) },
  };
  const config = JSON.parse(read(FILES.config)) as SimConfig;
  return { dir, config, pki, dbFile: join(dir, FILES.db) };
}
