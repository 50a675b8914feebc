/**
 * Pix provider connections (extensions.md "Live Pix over the BCB API Pix (v2)"): one active
 * connection per account, serving its live mode through a PSP that speaks the BCB API Pix v2.
 * Secrets (client secret, private key) are sealed with src/lib/secret-box.ts, bound to
 * `pix_provider:<id>:<field>`; known PSP differences are optional columns, never code per bank.
 */
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, uniqueIndex } from "drizzle-orm/sqlite-core";

export const pixProviderConnections = sqliteTable(
  "pix_provider_connections",
  {
    /** `ppc_` + raw id; also the last segment of the webhook URL registered at the PSP. */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    /** "bcb_pix_v2" */
    type: text("type").notNull(),
    apiUrl: text("api_url").notNull(),
    tokenUrl: text("token_url").notNull(),
    clientId: text("client_id").notNull(),
    /** secret-box sealed (aad `pix_provider:<id>:client_secret`). */
    clientSecretSealed: text("client_secret_sealed").notNull(),
    /** PEM client certificate (public). */
    certificate: text("certificate").notNull(),
    /** secret-box sealed PEM private key (aad `pix_provider:<id>:private_key`). */
    privateKeySealed: text("private_key_sealed").notNull(),
    /** Extra PEM roots of the PSP's server certificate; null = the system roots only. */
    caCertificates: text("ca_certificates"),
    pixKey: text("pix_key").notNull(),
    /** OAuth2 `scope` sent on the token call (Inter requires one); null = none sent. */
    scope: text("scope"),
    /** How the token call presents the client credentials: "basic" (RFC 6749 2.3.1) or "form". */
    tokenAuth: text("token_auth").notNull().default("basic"),
    /** JSON object of query parameters added to every API call (Banco do Brasil's `gw-dev-app-key`); null = none. */
    apiQuery: text("api_query"),
    /** Lowercase hex SHA-256 of the certificate's DER. */
    certificateFingerprint: text("certificate_fingerprint").notNull(),
    /** Epoch ms of the certificate's notAfter. */
    certificateExpiresAt: integer("certificate_expires_at").notNull(),
    webhookUrl: text("webhook_url").notNull(),
    webhookRegistered: integer("webhook_registered", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** Epoch ms of DELETE; the row stays so charges created through it keep settling. */
    deletedAt: integer("deleted_at"),
  },
  (t) => [uniqueIndex("pix_provider_connections_account_uq").on(t.accountId).where(sql`deleted_at IS NULL`)],
);
