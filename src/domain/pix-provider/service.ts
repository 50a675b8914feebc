/**
 * Pix provider connection use cases (extensions.md "Live Pix over the BCB API Pix (v2)"; issue 14
 * §2): connect (PUT), read (GET), delete (DELETE) an account's one live connection.
 * Connect checks the PEMs with @peculiar/x509 (400), obtains a token with the given credentials
 * (refused -> 422 `provider_connection_failed` with the PSP's status and text, nothing stored),
 * registers Cofre's webhook (`PUT {api_url}/webhook/{pix_key}`; a refusal is logged and shown as
 * `webhook_registered: false`, since polls and sweeps still find payments), then stores the
 * connection with its secrets sealed. Secrets are never returned or logged.
 */
import type { Deps } from "../deps";
import { DomainError, invalidParam, notFound } from "../errors";
import { newId } from "../../lib/ids";
import { certificateFacts, checkKeyPair, parseCertificates, PemError } from "../../lib/x509";
import type { ConnectionSpec, ConnectionType } from "./port";
import type { PixProviderConnectionRow as ConnectionRow } from "../../store/rows";
import { openConnection, sealSecrets } from "./secrets";
import { accountConnectionView, connectionView } from "./views";

/** The PUT body (extensions.md), plus the optional PSP differences (README "Live Pix: provider connections"). */
export interface ConnectInput {
  /**
   * `bcb_pix_v2`: `api_url` is the API Pix base; `efi`: `api_url` is Efí's origin (extensions.md "Pix send through a
   * PSP: connection type `efi`").
   */
  type: ConnectionType;
  api_url: string;
  token_url: string;
  client_id: string;
  client_secret: string;
  certificate: string;
  private_key: string;
  ca_certificates?: string;
  pix_key: string;
  /** OAuth2 scope sent on the token call (e.g. Inter). */
  scope?: string;
  /** "basic" (default) or "form": where the token call carries the client credentials. */
  token_auth?: "basic" | "form";
  /** Query parameters added to every API call (e.g. Banco do Brasil `{"gw-dev-app-key": "..."}`). */
  api_query?: Record<string, string>;
}

/** A certificate that expires within this many days is logged at warn (daily job, and at connect). */
export const EXPIRY_WARNING_DAYS = 30;
export const DAY_MS = 86_400_000;

/** The URL a PSP calls back: `{COFRE_PUBLIC_URL}/v1/provider-webhooks/pix/{id}` (the PSP appends `/pix`). */
function webhookUrlOf(deps: Deps, connectionId: string): string {
  return `${deps.config.publicUrl}/v1/provider-webhooks/pix/${connectionId}`;
}

function httpsUrl(value: string, param: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw invalidParam(param, `${param} must be an absolute https URL.`, "invalid_url");
  }
  if (u.protocol !== "https:")
    throw invalidParam(param, `${param} must use https (the PSP is reached over mutual TLS).`, "invalid_url");
  if (u.username || u.password) throw invalidParam(param, `${param} must not carry credentials.`, "invalid_url");
  return value.replace(/\/+$/, "");
}

/** Checks the PEMs (400 on `param`); returns the certificate's fingerprint and expiry. */
async function checkPems(input: ConnectInput) {
  try {
    const facts = await certificateFacts(input.certificate, "certificate");
    await checkKeyPair(input.certificate, input.private_key);
    if (input.ca_certificates !== undefined) await parseCertificates(input.ca_certificates, "ca_certificates");
    return facts;
  } catch (err) {
    if (err instanceof PemError) throw invalidParam(err.field, err.message);
    throw err;
  }
}

/**
 * PUT: connects (or replaces) the account's connection. Throws 404 `not_found` (no such account),
 * 400 `invalid_url` / `invalid_request` (a URL or PEM), 422 `provider_connection_failed`.
 */
export async function connect(deps: Deps, accountId: string, input: ConnectInput) {
  if (!(await deps.store.read.accounts.byId(accountId))) throw notFound("account");
  const apiUrl = httpsUrl(input.api_url, "api_url");
  if (input.type === "efi" && new URL(apiUrl).pathname !== "/")
    throw invalidParam(
      "api_url",
      "api_url of an efi connection is the PSP's origin (e.g. https://pix.api.efipay.com.br): Cofre adds /v2/cob, /v3/gn/pix, ...",
      "invalid_url",
    );
  const tokenUrl = httpsUrl(input.token_url, "token_url");
  const cert = await checkPems(input);
  const existing = await deps.store.read.pixProvider.activeByAccount(accountId);
  const id = existing?.id ?? newId("pixProviderConnection");
  const conn: ConnectionSpec = {
    id,
    type: input.type,
    apiUrl,
    tokenUrl,
    clientId: input.client_id,
    clientSecret: input.client_secret,
    certificate: input.certificate,
    privateKey: input.private_key,
    caCertificates: input.ca_certificates ?? null,
    scope: input.scope ?? null,
    tokenAuth: input.token_auth ?? "basic",
    apiQuery: input.api_query && Object.keys(input.api_query).length ? input.api_query : null,
  };
  const webhookUrl = webhookUrlOf(deps, id);
  const { token, webhook } = await deps.pixConnections.connect(conn, input.pix_key, webhookUrl);
  if (!token.ok)
    throw new DomainError("provider_connection_failed", `The PSP did not grant an access token: ${token.message}`, {
      param: "token_url",
    });
  if (webhook && !webhook.ok)
    deps.logger.warn(
      { connection_id: id, account_id: accountId, reason: webhook.message },
      "pix provider: the PSP refused the webhook registration",
    );

  const now = deps.clock.nowMs();
  const sealed = await sealSecrets(await deps.secretsKey, id, input.client_secret, input.private_key);
  const row: ConnectionRow = {
    id,
    accountId,
    type: input.type,
    apiUrl,
    tokenUrl,
    clientId: input.client_id,
    ...sealed,
    certificate: input.certificate,
    caCertificates: conn.caCertificates,
    pixKey: input.pix_key,
    scope: conn.scope,
    tokenAuth: conn.tokenAuth,
    apiQuery: conn.apiQuery ? JSON.stringify(conn.apiQuery) : null,
    certificateFingerprint: cert.fingerprintSha256,
    certificateExpiresAt: cert.expiresAt,
    webhookUrl,
    webhookRegistered: webhook?.ok === true,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    deletedAt: null,
  };
  await deps.store.tx((uow) => uow.pixProvider.saveActive(row));
  warnIfExpiring(deps, row);
  return connectionView(row);
}

/** GET: the account's connection view. Throws 404 `not_found` when it has none. */
export async function getConnection(deps: Deps, accountId: string) {
  const row = await deps.store.read.pixProvider.activeByAccount(accountId);
  if (!row) throw notFound("Pix provider connection");
  return connectionView(row);
}

/** GET /v1/account/pix-provider: the account's status view of its active connection. Throws 404 `not_found` when it has none. */
export async function getAccountConnection(deps: Deps, accountId: string) {
  const row = await deps.store.read.pixProvider.activeByAccount(accountId);
  if (!row) throw notFound("Pix provider connection");
  return accountConnectionView(row);
}

/**
 * DELETE: the account's live charges answer 422 again. The row stays (marked deleted) so charges
 * already created keep settling through polls; the webhook is unregistered at the PSP, best
 * effort (a failure is logged). Throws 404 `not_found` when the account has no connection.
 */
export async function deleteConnection(deps: Deps, accountId: string): Promise<void> {
  const row = await deps.store.read.pixProvider.activeByAccount(accountId);
  if (!row) throw notFound("Pix provider connection");
  const at = deps.clock.nowMs();
  await deps.store.tx((uow) => uow.pixProvider.markDeleted(row.id, at));
  if (!row.webhookRegistered) return;
  try {
    const r = await deps.pixConnections.disconnect(await openConnection(await deps.secretsKey, row), row.pixKey);
    if (!r.ok)
      deps.logger.warn(
        { connection_id: row.id, account_id: accountId, reason: r.message },
        "pix provider: the webhook could not be removed at the PSP",
      );
  } catch (err) {
    deps.logger.warn(
      { connection_id: row.id, account_id: accountId, reason: (err as Error).message },
      "pix provider: the webhook could not be removed at the PSP",
    );
  }
}

/** Logs the connection's certificate expiry at warn when it is within EXPIRY_WARNING_DAYS (or past); returns whether it did. */
export function warnIfExpiring(deps: Deps, row: ConnectionRow): boolean {
  if (row.certificateExpiresAt - deps.clock.nowMs() >= EXPIRY_WARNING_DAYS * DAY_MS) return false;
  warnExpiry(deps, row);
  return true;
}

/** Logs the connection's certificate expiry at warn (no secret). */
function warnExpiry(deps: Deps, row: ConnectionRow): void {
  const days = Math.floor((row.certificateExpiresAt - deps.clock.nowMs()) / DAY_MS);
  deps.logger.warn(
    {
      connection_id: row.id,
      account_id: row.accountId,
      certificate_fingerprint_sha256: row.certificateFingerprint,
      certificate_expires_at: new Date(row.certificateExpiresAt).toISOString(),
      days_left: days,
    },
    days < 0
      ? "pix provider: the client certificate has expired"
      : `pix provider: the client certificate expires in ${days} days`,
  );
}
