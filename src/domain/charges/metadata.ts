/**
 * Merchant metadata hygiene (interface.md Charge `metadata`): reserved keys and keys starting with
 * `_` are stripped at the top level; `__proto__`, `constructor` and `prototype` at every depth.
 * The informational blocks `failure` and `med` belong to the platform and are reserved.
 */

/** Top-level keys the platform owns (its informational blocks). */
export const RESERVED_METADATA_KEYS: ReadonlySet<string> = new Set(["failure", "med"]);
const POISON = new Set(["__proto__", "constructor", "prototype"]);

function clean(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1));
  if (value && typeof value === "object" && depth < 16) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!POISON.has(k)) out[k] = clean(v, depth + 1);
    return out;
  }
  return value;
}

/**
 * A clean copy of `input` (a plain object; anything else gives `{}`). `extraReserved` adds keys
 * a caller owns (e.g. none for charges).
 */
export function sanitizeMetadata(input: unknown, extraReserved: readonly string[] = []): Record<string, unknown> {
  if (!input || typeof input !== "object" || Array.isArray(input)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (k.startsWith("_") || POISON.has(k) || RESERVED_METADATA_KEYS.has(k) || extraReserved.includes(k)) continue;
    out[k] = clean(v, 1);
  }
  return out;
}

/**
 * The informational `metadata.failure` block (interface.md "Informational charge metadata
 * blocks"): `{reason, providerErrorCode, ttlSeconds?, at}`. `providerErrorCode` is null when the
 * provider gave none; `ttlSeconds` (Pix QR lifetime, seconds) is absent when the charge had no expiry.
 */
export function failureBlock(
  reason: string,
  providerErrorCode: string | null | undefined,
  ttlSeconds: number | null | undefined,
  atIso: string,
): Record<string, unknown> {
  const failure: Record<string, unknown> = { reason, providerErrorCode: providerErrorCode ?? null };
  if (ttlSeconds !== null && ttlSeconds !== undefined) failure.ttlSeconds = ttlSeconds;
  failure.at = atIso;
  return failure;
}
