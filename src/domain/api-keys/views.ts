/** Allowlist serializers of API keys (interface.md "API key"). */
import { iso } from "../../lib/clock";
import type { ApiKeyRow } from "../../store/rows";
import { DateTime, Type, View, type Static } from "../../lib/view-schema";

const Mode = () => Type.Union([Type.Literal("test"), Type.Literal("live")]);
const listFields = {
  id: Type.String({ examples: ["ak_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  prefix: Type.String({ description: "First 12 characters of the key.", examples: ["ak_test_AbCd"] }),
  label: Type.String(),
  createdAt: DateTime(),
  mode: Mode(),
};

/** Issue and rotate (201). */
export const IssuedKeySchema = View("IssuedApiKey", {
  id: listFields.id,
  apiKey: Type.String({
    description: "The cleartext key, shown exactly once.",
    pattern: "^ak_(test|live)_[A-Za-z0-9_-]{32}$",
    examples: ["ak_test_Qm9vdHN0cmFwS2V5RXhhbXBsZTEyMzQ1"],
  }),
  fingerprint: Type.String({
    pattern: "^[0-9a-f]{64}$",
    description: "SHA-256 hex of the key.",
    examples: ["9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"],
  }),
  prefix: listFields.prefix,
  label: listFields.label,
  createdAt: listFields.createdAt,
  mode: Mode(),
});
/** List item: no cleartext, no fingerprint. */
export const ApiKeySchema = View("ApiKey", listFields);
/** GET /v1/api-keys. */
export const ApiKeyListSchema = View("ApiKeyList", {
  data: Type.Array(ApiKeySchema),
  access: View("ApiKeyAccess", { canManage: Type.Boolean({ description: "True for OWNER and ADMIN." }) }),
});
/** DELETE /v1/api-keys/{id}. */
export const KeyRevokedSchema = View("ApiKeyRevoked", { revoked: Type.Literal(true) });

/** Issue and rotate (201): the only place the cleartext and fingerprint appear, exactly once. */
export function issuedKeyView(row: ApiKeyRow, cleartext: string): Static<typeof IssuedKeySchema> {
  return {
    id: row.id,
    apiKey: cleartext,
    fingerprint: row.fingerprint,
    prefix: row.prefix,
    label: row.label,
    createdAt: iso(row.createdAt),
    mode: row.mode as "test" | "live",
  };
}

/** List item: no cleartext, no fingerprint. */
export function keyListItemView(row: ApiKeyRow): Static<typeof ApiKeySchema> {
  return {
    id: row.id,
    prefix: row.prefix,
    label: row.label,
    createdAt: iso(row.createdAt),
    mode: row.mode as "test" | "live",
  };
}
