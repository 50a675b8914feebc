/** Allowlist view of a Pix provider connection (extensions.md "Live Pix over the BCB API Pix (v2)"): never a secret. */
import { iso } from "../../lib/clock";
import { DateTime, OneOf, Type, Url, View, type Static } from "../../lib/view-schema";
import type { PixProviderConnectionRow as ConnectionRow } from "../../store/rows";

/** The stored type as the views name it (`efi`, else `bcb_pix_v2`). */
const connectionType = (row: ConnectionRow): "bcb_pix_v2" | "efi" => (row.type === "efi" ? "efi" : "bcb_pix_v2");

/** GET/PUT /v1/operator/accounts/{account_id}/pix-provider. */
export const PixProviderConnectionSchema = View("PixProviderConnection", {
  id: Type.String({ examples: ["ppc_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  type: OneOf(["bcb_pix_v2", "efi"] as const, {
    description: "`bcb_pix_v2`: a PSP of the BCB API Pix v2; `efi`: Efí (the standard plus Pix send).",
  }),
  api_url: Url({
    description:
      "`bcb_pix_v2`: the PSP's API Pix base (Cofre appends `/cob/{txid}`, `/pix/{e2eid}`, ...); `efi`: Efí's origin (Cofre calls `/v2/cob/...`, `/v3/gn/pix/{idEnvio}`, ...).",
  }),
  token_url: Url({ description: "The PSP's OAuth2 token endpoint." }),
  client_id: Type.String(),
  pix_key: Type.String({ description: "The receiving Pix key (DICT)." }),
  certificate_fingerprint_sha256: Type.String({
    pattern: "^[0-9a-f]{64}$",
    examples: ["9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"],
    description: "Lowercase hex SHA-256 of the client certificate's DER.",
  }),
  certificate_expires_at: DateTime({
    description: "The client certificate's notAfter; a warning is logged daily from 30 days before.",
  }),
  webhook_url: Url({
    description: "`{COFRE_PUBLIC_URL}/v1/provider-webhooks/pix/{id}`, registered at the PSP (which appends `/pix`).",
  }),
  webhook_registered: Type.Boolean({
    description: "false when the PSP refused the registration (payments are still found by polls and sweeps).",
  }),
  created_at: DateTime(),
  updated_at: DateTime(),
});

/**
 * The view: `{id, type, api_url, token_url, client_id, pix_key, certificate_fingerprint_sha256, certificate_expires_at,
 * webhook_url, webhook_registered, created_at, updated_at}`.
 */
export function connectionView(row: ConnectionRow): Static<typeof PixProviderConnectionSchema> {
  return {
    id: row.id,
    type: connectionType(row),
    api_url: row.apiUrl,
    token_url: row.tokenUrl,
    client_id: row.clientId,
    pix_key: row.pixKey,
    certificate_fingerprint_sha256: row.certificateFingerprint,
    certificate_expires_at: iso(row.certificateExpiresAt),
    webhook_url: row.webhookUrl,
    webhook_registered: row.webhookRegistered,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** GET /v1/account/pix-provider (issue 15, dashboard Settings): the account's own read of its connection's status. */
export const AccountPixProviderSchema = View("AccountPixProvider", {
  type: OneOf(["bcb_pix_v2", "efi"] as const),
  api_url: Url({ description: "The PSP's API Pix base (`efi`: its origin)." }),
  pix_key: Type.String({ description: "The receiving Pix key (DICT)." }),
  certificate_expires_at: DateTime({ description: "The client certificate's notAfter." }),
  webhook_registered: Type.Boolean({
    description: "false when the PSP refused the webhook registration (payments are still found by polls and sweeps).",
  }),
  updated_at: DateTime(),
});

/**
 * The account's view `{type, api_url, pix_key, certificate_expires_at, webhook_registered, updated_at}`: no id, client
 * id, certificate or secret.
 */
export function accountConnectionView(row: ConnectionRow): Static<typeof AccountPixProviderSchema> {
  return {
    type: connectionType(row),
    api_url: row.apiUrl,
    pix_key: row.pixKey,
    certificate_expires_at: iso(row.certificateExpiresAt),
    webhook_registered: row.webhookRegistered,
    updated_at: iso(row.updatedAt),
  };
}
