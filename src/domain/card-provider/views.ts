/**
 * Allowlist views of a card provider connection (extensions.md "Live cards and boletos through Stripe"): never a
 * secret.
 */
import { iso } from "../../lib/clock";
import { DateTime, OneOf, Type, Url, View, type Static } from "../../lib/view-schema";
import type { CardProviderConnectionRow as ConnectionRow } from "../../store/rows";

/** GET/PUT /v1/operator/accounts/{account_id}/card-provider. */
export const CardProviderConnectionSchema = View("CardProviderConnection", {
  id: Type.String({ examples: ["cpc_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  type: OneOf(["stripe"] as const),
  api_base: Url({ description: "The API origin the connection calls (Stripe's, or the simulator's)." }),
  key_last4: Type.String({ description: "Last four characters of the secret key (the key itself is never returned)." }),
  provider_account_id: Type.Union([Type.String(), Type.Null()], {
    description: "The Stripe account the key belongs to (`acct_...`).",
  }),
  webhook_url: Url({
    description: "`{COFRE_PUBLIC_URL}/v1/provider-webhooks/stripe/{id}`, registered at Stripe for every event.",
  }),
  webhook_endpoint_id: Type.String({ description: "Stripe's id of that endpoint (`we_...`)." }),
  created_at: DateTime(),
  updated_at: DateTime(),
});

/**
 * The view `{id, type, api_base, key_last4, provider_account_id, webhook_url, webhook_endpoint_id, created_at,
 * updated_at}`.
 */
export function cardConnectionView(row: ConnectionRow): Static<typeof CardProviderConnectionSchema> {
  return {
    id: row.id,
    type: "stripe",
    api_base: row.apiBase,
    key_last4: row.keyLast4,
    provider_account_id: row.providerAccountId,
    webhook_url: row.webhookUrl,
    webhook_endpoint_id: row.webhookEndpointId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** GET /v1/account/card-provider (dashboard Settings): the account's own read of its card connection's status. */
export const AccountCardProviderSchema = View("AccountCardProvider", {
  type: OneOf(["stripe"] as const),
  key_last4: Type.String({ description: "Last four characters of the secret key." }),
  provider_account_id: Type.Union([Type.String(), Type.Null()]),
  updated_at: DateTime(),
});

/** The account's view `{type, key_last4, provider_account_id, updated_at}`: no id, URL or secret. */
export function accountCardConnectionView(row: ConnectionRow): Static<typeof AccountCardProviderSchema> {
  return {
    type: "stripe",
    key_last4: row.keyLast4,
    provider_account_id: row.providerAccountId,
    updated_at: iso(row.updatedAt),
  };
}
