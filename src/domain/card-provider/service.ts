/**
 * Card provider connection use cases (extensions.md "Live cards and boletos through Stripe"; issue
 * 26 §1): connect (PUT), read (GET), delete (DELETE) an account's one live card connection.
 * Connect checks the key and creates Cofre's webhook endpoint at the provider before anything is
 * stored (a refusal -> 422 `provider_connection_failed` with the provider's reason); the secret key
 * and the endpoint's signing secret are stored sealed, never returned or logged.
 */
import type { Deps } from "../deps";
import { DomainError, invalidParam, notFound } from "../errors";
import { newId } from "../../lib/ids";
import type { CardProviderConnectionRow as ConnectionRow } from "../../store/rows";
import { openCardConnection, sealCardSecrets } from "./secrets";
import { accountCardConnectionView, cardConnectionView } from "./views";

/** Stripe's API origin, the default `api_base`. */
export const DEFAULT_API_BASE = "https://api.stripe.com";

/** The PUT body (extensions.md). */
export interface CardConnectInput {
  type: "stripe";
  secret_key: string;
  /** API origin; default Stripe's. */
  api_base?: string;
}

/** The URL Stripe posts events to: `{COFRE_PUBLIC_URL}/v1/provider-webhooks/stripe/{id}`. */
export function cardWebhookUrlOf(deps: Pick<Deps, "config">, connectionId: string): string {
  return `${deps.config.publicUrl}/v1/provider-webhooks/stripe/${connectionId}`;
}

/** `api_base` as an origin (http or https, no credentials, no path); 400 `invalid_url` otherwise. */
function apiOrigin(value: string | undefined): string {
  if (value === undefined) return DEFAULT_API_BASE;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw invalidParam("api_base", "api_base must be an absolute URL.", "invalid_url");
  }
  if (u.protocol !== "https:" && u.protocol !== "http:")
    throw invalidParam("api_base", "api_base must use https (or http for a local simulator).", "invalid_url");
  if (u.username || u.password) throw invalidParam("api_base", "api_base must not carry credentials.", "invalid_url");
  if (u.pathname !== "/" || u.search || u.hash)
    throw invalidParam(
      "api_base",
      "api_base is an origin such as https://api.stripe.com (Cofre adds /v1/...).",
      "invalid_url",
    );
  return u.origin;
}

/**
 * PUT: connects (or replaces) the account's card connection. Throws 404 `not_found` (no such
 * account), 400 `invalid_url`, 422 `provider_connection_failed` (the key was refused or the
 * provider is unreachable; nothing stored). A replaced connection's webhook endpoint is deleted
 * at the provider, best effort.
 */
export async function connectCardProvider(deps: Deps, accountId: string, input: CardConnectInput) {
  if (!(await deps.store.read.accounts.byId(accountId))) throw notFound("account");
  const apiBase = apiOrigin(input.api_base);
  const existing = await deps.store.read.cardProvider.activeByAccount(accountId);
  // A new id per PUT: the new webhook endpoint (and its secret) belongs to this version only.
  const id = newId("cardProviderConnection");
  const webhookUrl = cardWebhookUrlOf(deps, id);
  const r = await deps.cardConnections.connect({ apiBase, secretKey: input.secret_key }, webhookUrl);
  if (!r.ok)
    throw new DomainError("provider_connection_failed", `The card provider refused the connection: ${r.message}`, {
      param: "secret_key",
    });
  const now = deps.clock.nowMs();
  const row: ConnectionRow = {
    id,
    accountId,
    type: "stripe",
    apiBase,
    ...(await sealCardSecrets(await deps.secretsKey, id, input.secret_key, r.webhookSecret)),
    keyLast4: input.secret_key.slice(-4),
    providerAccountId: r.providerAccountId,
    webhookEndpointId: r.webhookEndpointId,
    webhookUrl,
    eventsSeenUntil: Math.floor(now / 1000),
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  await deps.store.tx((uow) => uow.cardProvider.saveActive(row));
  deps.logger.info(
    { connection_id: id, account_id: accountId, provider_account_id: r.providerAccountId },
    "card provider: connected",
  );
  if (existing) await removeEndpoint(deps, existing);
  return cardConnectionView(row);
}

/** GET: the account's card connection view. Throws 404 `not_found` when it has none. */
export async function getCardConnection(deps: Deps, accountId: string) {
  const row = await deps.store.read.cardProvider.activeByAccount(accountId);
  if (!row) throw notFound("card provider connection");
  return cardConnectionView(row);
}

/** GET /v1/account/card-provider: the account's status view. Throws 404 `not_found` when it has none. */
export async function getAccountCardConnection(deps: Deps, accountId: string) {
  const row = await deps.store.read.cardProvider.activeByAccount(accountId);
  if (!row) throw notFound("card provider connection");
  return accountCardConnectionView(row);
}

/**
 * DELETE: the account's live cards and boletos answer 422 again. The row stays (marked deleted) so
 * payments already created keep settling through polls; the webhook endpoint is deleted at the
 * provider, best effort. Throws 404 `not_found` when the account has no connection.
 */
export async function deleteCardConnection(deps: Deps, accountId: string): Promise<void> {
  const row = await deps.store.read.cardProvider.activeByAccount(accountId);
  if (!row) throw notFound("card provider connection");
  await deps.store.tx((uow) => uow.cardProvider.markDeleted(row.id, deps.clock.nowMs()));
  await removeEndpoint(deps, row);
}

/** Deletes connection `row`'s webhook endpoint at the provider; a failure is logged (no secret). */
async function removeEndpoint(deps: Deps, row: ConnectionRow): Promise<void> {
  try {
    const r = await deps.cardConnections.disconnect(
      await openCardConnection(await deps.secretsKey, row),
      row.webhookEndpointId,
    );
    if (!r.ok)
      deps.logger.warn(
        { connection_id: row.id, reason: r.message },
        "card provider: the webhook endpoint could not be removed",
      );
  } catch (err) {
    deps.logger.warn(
      { connection_id: row.id, reason: (err as Error).message },
      "card provider: the webhook endpoint could not be removed",
    );
  }
}
