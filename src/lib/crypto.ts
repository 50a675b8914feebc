/** Small hashing helpers: SHA-256 and HMAC-SHA256 as lowercase hex, random tokens, safe compare. */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** SHA-256 of `data` as 64 lowercase hex characters. */
export function sha256Hex(data: string | Uint8Array): string {
  return Bun.CryptoHasher.hash("sha256", data, "hex") as string;
}

/** HMAC-SHA256 of `data` under `key` as lowercase hex. */
export function hmacHex(key: string | Uint8Array, data: string | Uint8Array): string {
  return createHmac("sha256", key).update(data).digest("hex");
}

/** HMAC-SHA256 of `data` under `key` as standard base64. */
export function hmacBase64(key: string | Uint8Array, data: string | Uint8Array): string {
  return createHmac("sha256", key).update(data).digest("base64");
}

/** `n` random bytes as lowercase hex (2n characters). */
export function randomHex(n: number): string {
  return randomBytes(n).toString("hex");
}

/** `n` random bytes as base64url without padding. */
export function randomBase64Url(n: number): string {
  return randomBytes(n).toString("base64url");
}

/** Constant-time string equality (false on different lengths). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Canonical JSON: object keys sorted recursively, so two bodies that differ only in key order
 * hash the same (used for idempotency request fingerprints).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    // No prototype: a "__proto__" key is data here, not a prototype to set (it would vanish from the hash).
    const out: Record<string, unknown> = Object.create(null);
    for (const k of Object.keys(v as object).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}
