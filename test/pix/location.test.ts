import { describe, expect, spyOn, test } from "bun:test";
import QRCode from "qrcode";
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from "jose";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { parseTlv } from "../../src/pix/brcode";
import { harness, newCharge, raw } from "../charges/support";
import { testDeps } from "../support/backend";
import { testDb } from "../support/test-db";

function locationPath(brCode: string): string {
  const url = parseTlv(parseTlv(brCode).get("26")!).get("25")!;
  expect(url.startsWith("pay.cofre.test/")).toBe(true);
  expect(url.length).toBeLessThanOrEqual(77);
  return url.slice("pay.cofre.test".length);
}

describe("the Pix location URL", () => {
  test("GET returns the CobPayload as a JWS verifiable with the published key", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, {
      amount: 1234,
      description: "Pedido 42",
      expires_in: 900,
      customer: { name: "Maria", document: "52998224725" },
    });
    const r = await h.call("GET", locationPath(c.pix.br_code));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/jose");
    const header = decodeProtectedHeader(r.text);
    expect(header.alg).toBe("PS256");
    expect(header.jku).toBe("https://pay.cofre.test/v1/pix/jwks.json");
    const jwks = await h.call("GET", "/v1/pix/jwks.json");
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys[0].d).toBeUndefined();
    const { payload } = await compactVerify(r.text, createLocalJWKSet(jwks.body));
    const cob = JSON.parse(new TextDecoder().decode(payload));
    expect(cob.txid).toBe(c.pix.txid);
    expect(cob.status).toBe("ATIVA");
    expect(cob.revisao).toBe(0);
    expect(cob.valor).toEqual({ original: "12.34" });
    expect(cob.calendario.criacao).toBe("2026-11-20T12:00:00.000Z");
    expect(cob.calendario.expiracao).toBe(900);
    expect(cob.devedor).toBeUndefined();
    expect(r.text.includes("52998224725") || JSON.stringify(cob).includes("52998224725")).toBe(false);
    expect(cob.solicitacaoPagador).toBe("Pedido 42");
    expect(typeof cob.chave).toBe("string");
    await h.call("POST", `/v1/test_helpers/charges/${c.id}/pay`, { key: a.testKey, body: {} });
    const after = await h.call("GET", locationPath(c.pix.br_code));
    const paid = JSON.parse(
      new TextDecoder().decode((await compactVerify(after.text, createLocalJWKSet(jwks.body))).payload),
    );
    expect(paid.status).toBe("CONCLUIDA");
  });

  test("a tampered JWS does not verify and an unknown txid is 404", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    const r = await h.call("GET", locationPath(c.pix.br_code));
    const jwks = (await h.call("GET", "/v1/pix/jwks.json")).body;
    const [head, body, sig] = r.text.split(".");
    const forged = Buffer.from(JSON.stringify({ txid: c.pix.txid, valor: { original: "0.01" } })).toString("base64url");
    await expect(compactVerify(`${head}.${forged}.${sig}`, createLocalJWKSet(jwks))).rejects.toThrow();
    void body;
    expect((await h.call("GET", "/v1/pix/loc/ABCDEFGHIJKLMNOPQRSTUVWXYZ0123")).status).toBe(404);
  });

  test("the signing key is generated once per data directory and reused after a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cofre-pixkey-"));
    try {
      const config = { logLevel: "silent", publicUrl: "https://pay.cofre.test" };
      const d1 = testDeps({ dataDir: dir, config });
      const j1 = await (await createApp(d1).handle(new Request("http://localhost/v1/pix/jwks.json"))).json();
      await d1.store.close();
      const d2 = testDeps({ dataDir: dir, config });
      const j2 = await (await createApp(d2).handle(new Request("http://localhost/v1/pix/jwks.json"))).json();
      expect(j2).toEqual(j1);
      expect(await testDb(d2).all("select * from pix_signing_keys")).toHaveLength(1);
      await d2.store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the QR image", () => {
  test("is not rendered while creating the charge", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const spy = spyOn(QRCode, "toBuffer");
    try {
      await newCharge(h, a);
      await h.call("GET", "/v1/charges", { key: a.testKey });
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  test("decodes back to the charge's BR Code and is cacheable", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { amount: 98765 });
    expect(c.pix.qr_code_base64).toBeUndefined();
    const path = new URL(c.pix.qr_code_url).pathname;
    expect(path).toBe(`/v1/qr/${raw(c.id)}.png`);
    const res = await h.app.handle(new Request(`http://localhost${path}`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toContain("max-age=");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(c.pix.br_code);
    const again = await h.app.handle(new Request(`http://localhost${path}`, { headers: { "if-none-match": etag } }));
    expect(again.status).toBe(304);
  });

  test("an unknown id or a malformed file name is 404", async () => {
    const h = harness();
    for (const p of [
      "/v1/qr/0123456789abcdef0123456789abcdef.png",
      "/v1/qr/nothing.png",
      "/v1/qr/0123456789abcdef0123456789abcdef.jpg",
    ])
      expect((await h.call("GET", p)).status).toBe(404);
  });
});
