/**
 * Secrets at rest (issue "Live Pix" §2): AES-256-GCM through WebCrypto under one 32-byte key.
 *
 * The key comes from `COFRE_SECRETS_KEY` (base64 of exactly 32 bytes) or, when that is unset, from
 * `$COFRE_DATA_DIR/secrets.key`, generated once (base64 text, mode 0600) on first use. Losing that
 * file (or the variable) makes every stored provider secret unreadable: back it up with the
 * database, but apart from it. An in-memory database (tests) gets a fresh key per process.
 *
 * Sealed form: `v1.<iv>.<ciphertext+tag>` (base64url, 12-byte random IV, 128-bit tag). Each value
 * is sealed with associated data naming its place (e.g. `pix_provider:<connection id>:client_secret`)
 * so a ciphertext copied into another row or field does not open.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const VERSION = "v1";
const IV_BYTES = 12;
const KEY_BYTES = 32;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A key that does not decode to 32 bytes, or a sealed value that fails to open. */
export class SecretBoxError extends Error {}

/** Imports 32 raw bytes as a non-extractable AES-GCM key. Throws SecretBoxError on another length. */
export async function importSecretsKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  if (raw.byteLength !== KEY_BYTES)
    throw new SecretBoxError(`the secrets key must be ${KEY_BYTES} bytes, got ${raw.byteLength}`);
  return crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

/** Decodes base64 (standard or url-safe, padding optional) strictly: null when it is not base64. */
function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  const t = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return null;
  return new Uint8Array(Buffer.from(t.replace(/-/g, "+").replace(/_/g, "/"), "base64"));
}

/**
 * The raw key bytes for `envValue` (COFRE_SECRETS_KEY) or the data dir's `secrets.key`, creating
 * that file (0600) when absent. Throws SecretBoxError naming the source when it is not 32 bytes
 * of base64. `dataDir` ":memory:" without a variable: 32 fresh random bytes (not persisted).
 */
export function resolveSecretsKeyBytes(envValue: string | null | undefined, dataDir: string): Uint8Array<ArrayBuffer> {
  if (envValue) {
    const bytes = decodeBase64(envValue);
    if (!bytes || bytes.byteLength !== KEY_BYTES)
      throw new SecretBoxError(`COFRE_SECRETS_KEY must be base64 of ${KEY_BYTES} bytes`);
    return bytes;
  }
  if (dataDir === ":memory:") return crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  const path = join(dataDir, "secrets.key");
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true });
    const fresh = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
    try {
      // `wx`: two processes starting at once never overwrite each other's key; the loser reads it.
      writeFileSync(path, `${Buffer.from(fresh).toString("base64")}\n`, { flag: "wx", mode: 0o600 });
      return fresh;
    } catch (err) {
      if ((err as { code?: string }).code !== "EEXIST") throw err;
    }
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  const bytes = decodeBase64(readFileSync(path, "utf8"));
  if (!bytes || bytes.byteLength !== KEY_BYTES)
    throw new SecretBoxError(`${path} must hold base64 of ${KEY_BYTES} bytes`);
  return bytes;
}

/** Seals `plaintext` under `key`, bound to `aad` (the value's place). Returns `v1.<iv>.<sealed>`. */
export async function seal(key: CryptoKey, plaintext: string, aad: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(aad) },
    key,
    encoder.encode(plaintext),
  );
  return `${VERSION}.${Buffer.from(iv).toString("base64url")}.${Buffer.from(sealed).toString("base64url")}`;
}

/** Opens a value of `seal` with the same `aad`. Throws SecretBoxError when it is malformed, tampered, or another key or place sealed it. */
export async function open(key: CryptoKey, sealedValue: string, aad: string): Promise<string> {
  const [version, ivText, body] = sealedValue.split(".");
  if (version !== VERSION || !ivText || !body) throw new SecretBoxError("not a sealed value");
  const iv = new Uint8Array(Buffer.from(ivText, "base64url"));
  if (iv.byteLength !== IV_BYTES) throw new SecretBoxError("not a sealed value");
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(aad) },
      key,
      Buffer.from(body, "base64url"),
    );
    return decoder.decode(plain);
  } catch {
    throw new SecretBoxError("the sealed value does not open under this key and place");
  }
}
