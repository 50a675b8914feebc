import { describe, expect, test } from "bun:test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { qrDataUrl, qrPng } from "../../src/pix/qr";

describe("the pixQrCode render cache", () => {
  test("concurrent first requests for one BR Code share a single render", async () => {
    const code = `000201010212-cache-test-${Math.random()}`;
    const a = qrDataUrl(code);
    const b = qrDataUrl(code);
    expect(a).toBe(b);
    const url = await a;
    expect(url.startsWith("data:image/png;base64,")).toBe(true);
    const png = PNG.sync.read(Buffer.from(url.slice("data:image/png;base64,".length), "base64"));
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(code);
  });

  test("the PNG of GET /v1/qr shares its render the same way and decodes to the BR Code", async () => {
    const code = `000201010212-png-cache-test-${Math.random()}`;
    const a = qrPng(code);
    expect(qrPng(code)).toBe(a);
    const { png, etag } = await a;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const img = PNG.sync.read(Buffer.from(png));
    expect(jsQR(new Uint8ClampedArray(img.data), img.width, img.height)?.data).toBe(code);
  });
});
