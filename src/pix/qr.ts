/**
 * QR images of a BR Code: the `pixQrCode` data URL of `/v1/payments` and the PNG of
 * `GET /v1/qr/<raw_id>.png`. A BR Code never changes, so each renderer keeps a small LRU of render
 * promises: lists and pollers render the same codes again, and concurrent first requests for one
 * code share a single render instead of each starting one. A failed render is not cached.
 */
import type { PackerOptions } from "pngjs";
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

/**
 * How the PNGs are encoded: 8-bit grayscale (the modules are black and white, so no pixel changes
 * against qrcode's default RGBA) with the Sub filter on every row. Measured on a BR Code of a
 * cobv (issue 25 §3, docs/performance.md "Payments list"): the 256 px data URL is 1,742
 * characters against 4,678 with the defaults, and a 20-item payments page is about half as big.
 */
const PNG_OPTIONS: PackerOptions = { colorType: 0, filterType: 1, deflateStrategy: 0 };
/** qrcode hands `rendererOpts` to pngjs's `PNG` as is (qrcode/lib/renderer/png.js); its types name only deflate's. */
const PNG_ENCODING = PNG_OPTIONS as { deflateStrategy?: number };

/** PNG bytes of a BR Code's QR: error correction M, 2-module margin, `size` in px or per module. */
function renderPng(brCode: string, size: { width: number } | { scale: number }): Promise<Buffer> {
  return QRCode.toBuffer(brCode, {
    type: "png",
    errorCorrectionLevel: "M",
    margin: 2,
    ...size,
    rendererOpts: PNG_ENCODING,
  });
}

/** `data:image/png;base64,...` QR of a BR Code (256 px, grayscale): what qrcode's `toDataURL` would build. */
export const qrDataUrl = lruOfPromises(
  2000,
  async (brCode) => `data:image/png;base64,${(await renderPng(brCode, { width: 256 })).toString("base64")}`,
);

/** PNG of a BR Code (6 px modules, grayscale) and its strong ETag. */
export const qrPng = lruOfPromises(512, async (brCode) => ({
  png: new Uint8Array(await renderPng(brCode, { scale: 6 })),
  etag: `"${sha256Hex(brCode).slice(0, 32)}"`,
}));
