/** QR PNG rendering with a small in-process LRU (a charge's BR Code never changes). */
import QRCode from "qrcode";
import { sha256Hex } from "../../../lib/crypto";

const MAX_ENTRIES = 512;
const cache = new Map<string, { png: Uint8Array<ArrayBuffer>; etag: string }>();

/** PNG of `brCode` (error correction M, 2-module margin) and its strong ETag, cached by `key`. */
export async function qrPng(key: string, brCode: string): Promise<{ png: Uint8Array<ArrayBuffer>; etag: string }> {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const png = new Uint8Array(await QRCode.toBuffer(brCode, { type: "png", errorCorrectionLevel: "M", margin: 2, scale: 6 }));
  const entry = { png, etag: `"${sha256Hex(brCode).slice(0, 32)}"` };
  cache.set(key, entry);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return entry;
}
