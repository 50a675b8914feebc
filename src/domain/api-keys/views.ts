/** Allowlist serializers of API keys (interface.md "API key"). */
import { iso } from "../../lib/clock";
import type { ApiKeyRow } from "./repo";

/** Issue and rotate (201): the only place the cleartext and fingerprint appear, exactly once. */
export function issuedKeyView(row: ApiKeyRow, cleartext: string) {
  return {
    id: row.id,
    apiKey: cleartext,
    fingerprint: row.fingerprint,
    prefix: row.prefix,
    label: row.label,
    createdAt: iso(row.createdAt),
    mode: row.mode,
  };
}

/** List item: no cleartext, no fingerprint. */
export function keyListItemView(row: ApiKeyRow) {
  return { id: row.id, prefix: row.prefix, label: row.label, createdAt: iso(row.createdAt), mode: row.mode };
}
