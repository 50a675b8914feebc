/**
 * QR images of a BR Code: the `pixQrCode` data URL of `/v1/payments` and the PNG of
 * `GET /v1/qr/<raw_id>.png`. A BR Code never changes, so each renderer keeps a small LRU of render
 * promises: lists and pollers render the same codes again, and concurrent first requests for one
 * code share a single render instead of each starting one. A failed render is not cached.
 */
import QRCode from "qrcode";
import { sha256Hex } from "../lib/crypto";

/** `render` memoised by its argument in an LRU of at most `max` promises. */
function lruOfPromises<T>(max: number, render: (brCode: string) => Promise<T>): (brCode: string) => Promise<T> {
  const cache = new Map<string, Promise<T>>();
  return (brCode) => {
    const hit = cache.get(brCode);
    if (hit) {
      cache.delete(brCode);
      cache.set(brCode, hit);
      return hit;
    }
    const p = render(brCode);
    p.catch(() => cache.delete(brCode));
    cache.set(brCode, p);
    if (cache.size > max) cache.delete(cache.keys().next().value!);
    return p;
  };
}

/** `data:image/png;base64,...` QR of a BR Code (error correction M, 2-module margin, 256 px). */
export const qrDataUrl = lruOfPromises(2000, (brCode) =>
  QRCode.toDataURL(brCode, { errorCorrectionLevel: "M", margin: 2, width: 256 }),
);

/** PNG of a BR Code (error correction M, 2-module margin, 6 px modules) and its strong ETag. */
export const qrPng = lruOfPromises(512, async (brCode) => ({
  png: new Uint8Array(await QRCode.toBuffer(brCode, { type: "png", errorCorrectionLevel: "M", margin: 2, scale: 6 })),
  etag: `"${sha256Hex(brCode).slice(0, 32)}"`,
}));
