/**
 * The sealed fields of a connection (issue 14 §2): the client secret and the private key are
 * stored sealed with the secret box (AES-256-GCM, src/lib/secret-box.ts), each bound to its place
 * `pix_provider:<connection id>:<field>`, so a value copied to another row or field does not open.
 */
import { open, seal } from "../../lib/secret-box";
import type { ConnectionSpec } from "./port";
import type { PixProviderConnectionRow as ConnectionRow } from "../../store/rows";

export type SealedField = "client_secret" | "private_key";

/** Associated data of a sealed field. */
export const aadOf = (connectionId: string, field: SealedField) => `pix_provider:${connectionId}:${field}`;

/** Both secrets of connection `id`, sealed. */
export async function sealSecrets(key: CryptoKey, id: string, clientSecret: string, privateKey: string) {
  return {
    clientSecretSealed: await seal(key, clientSecret, aadOf(id, "client_secret")),
    privateKeySealed: await seal(key, privateKey, aadOf(id, "private_key")),
  };
}

/** Parses the stored `api_query` JSON (null when none). */
function parseApiQuery(text: string | null): Record<string, string> | null {
  return text ? (JSON.parse(text) as Record<string, string>) : null;
}

/** What the HTTP client needs, secrets opened. Throws SecretBoxError when the key is not the one that sealed them. */
export async function openConnection(key: CryptoKey, row: ConnectionRow): Promise<ConnectionSpec> {
  return {
    id: row.id,
    type: row.type === "efi" ? "efi" : "bcb_pix_v2",
    apiUrl: row.apiUrl,
    tokenUrl: row.tokenUrl,
    clientId: row.clientId,
    clientSecret: await open(key, row.clientSecretSealed, aadOf(row.id, "client_secret")),
    certificate: row.certificate,
    privateKey: await open(key, row.privateKeySealed, aadOf(row.id, "private_key")),
    caCertificates: row.caCertificates,
    scope: row.scope,
    tokenAuth: row.tokenAuth === "form" ? "form" : "basic",
    apiQuery: parseApiQuery(row.apiQuery),
  };
}
