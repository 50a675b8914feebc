import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { createHarness } from "../support/harness";
import { createPayment, key, pay, pdfText } from "./support";

/** Decodes the QR images embedded in a PDF (poppler's pdfimages + jsQR). */
function pdfQrCodes(bytes: Uint8Array): string[] {
  if (!Bun.which("pdfimages")) throw new Error("pdfimages is missing: install poppler-utils");
  const dir = mkdtempSync(join(tmpdir(), "receipt-"));
  writeFileSync(join(dir, "r.pdf"), bytes);
  const p = Bun.spawnSync(["pdfimages", "-png", join(dir, "r.pdf"), join(dir, "img")]);
  if (p.exitCode !== 0) throw new Error(`pdfimages failed: ${p.stderr.toString()}`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".png"))
    .map((f) => {
      const png = PNG.sync.read(readFileSync(join(dir, f)));
      return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? "";
    })
    .filter(Boolean);
}

describe("GET /v1/payments/{id}/receipt", () => {
  test("a paid Pix transaction has a real PDF receipt with every fact and a verification QR", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ name: "Café São Jorge" });
    const p = await createPayment(h, a, { amount: 123456 });
    h.clock.advance(90);
    const charge = await pay(h, a, p.id);
    const r = await h.call("GET", `/v1/payments/${p.id}/receipt`, { key: a.testKey });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["base64", "contentType"]);
    expect(r.body.contentType).toBe("application/pdf");
    const bytes = Buffer.from(r.body.base64, "base64");
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(bytes);
    for (const s of ["Café São Jorge", "BRL 1,234.56", "PIX", "PAID", "2026-11-20 12:01:30 UTC", charge.settlement.end_to_end_id, p.id])
      expect(text).toContain(s);
    expect(pdfQrCodes(bytes)).toEqual([`http://localhost:3000/c/${p.id}`]);
  });

  test("a refunded transaction's receipt shows the refunded amount and time", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 5000 });
    await pay(h, a, p.id);
    const rf = await h.call("POST", `/v1/payments/${p.id}/refund`, { key: a.testKey, body: { idempotencyKey: key() } });
    for (let i = 0; i < 2; i++) {
      h.clock.advance(2);
      await h.deps.jobs.drain();
    }
    expect((await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey })).body.status).toBe("REFUNDED");
    const r = await h.call("GET", `/v1/payments/${p.id}/receipt`, { key: a.testKey });
    const text = await pdfText(Buffer.from(r.body.base64, "base64"));
    expect(text).toContain("REFUNDED");
    expect(text).toContain("Refunded at:");
    expect(text).toContain("2026-11-20 12:00:04 UTC");
    expect(text).toContain("BRL 50.00");
    expect(rf.status).toBe(201);
  });

  test("cancelled and refused transactions have receipts; a card receipt has no end-to-end id", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const c = await createPayment(h, a);
    await h.call("POST", `/v1/payments/${c.id}/cancel`, { key: a.testKey });
    const rc = await h.call("GET", `/v1/payments/${c.id}/receipt`, { key: a.testKey });
    expect(rc.status).toBe(200);
    expect(await pdfText(Buffer.from(rc.body.base64, "base64"))).toContain("CANCELLED");
    const card = await createPayment(h, a, { paymentMethods: ["CREDIT_CARD"] });
    await h.call("POST", `/c/${card.id}/card`, { body: { number: "4242424242424242" } });
    const text = await pdfText(Buffer.from((await h.call("GET", `/v1/payments/${card.id}/receipt`, { key: a.testKey })).body.base64, "base64"));
    expect(text).toContain("CREDIT_CARD");
    expect(text).toContain("APPROVED");
    expect(text).not.toContain("End-to-end id");
  });

  test("a transaction without a final outcome -> 400 receipt_not_available", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    const r = await h.call("GET", `/v1/payments/${p.id}/receipt`, { key: a.testKey });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("receipt_not_available");
  });

  test("another account's transaction -> 404", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const p = await createPayment(h, a);
    await pay(h, a, p.id);
    expect((await h.call("GET", `/v1/payments/${p.id}/receipt`, { key: b.testKey })).status).toBe(404);
  });
});
