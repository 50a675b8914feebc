/**
 * The sealed fields of a card connection: the secret key and the webhook signing secret, sealed
 * with the secret box (AES-256-GCM, src/lib/secret-box.ts), each bound to its place
 * `card_provider:<connection id>:<field>`, so a value copied to another row or field does not open.
 */
import { open, seal } from "../../lib/secret-box";
import type { CardProviderConnectionRow } from "../../store/rows";
import type { CardConnectionSpec } from "./port";

export type SealedField = "secret_key" | "webhook_secret";

/** Associated data of a sealed field. */
export const aadOf = (connectionId: string, field: SealedField) => `card_provider:${connectionId}:${field}`;

/** Both secrets of connection `id`, sealed. */
export async function sealCardSecrets(key: CryptoKey, id: string, secretKey: string, webhookSecret: string) {
  return {
    secretKeySealed: await seal(key, secretKey, aadOf(id, "secret_key")),
    webhookSecretSealed: await seal(key, webhookSecret, aadOf(id, "webhook_secret")),
  };
}

/** What the client needs, secrets opened. Throws SecretBoxError when the key is not the one that sealed them. */
export async function openCardConnection(key: CryptoKey, row: CardProviderConnectionRow): Promise<CardConnectionSpec> {
  return {
    id: row.id,
    apiBase: row.apiBase,
    secretKey: await open(key, row.secretKeySealed, aadOf(row.id, "secret_key")),
    webhookSecret: await open(key, row.webhookSecretSealed, aadOf(row.id, "webhook_secret")),
  };
}
