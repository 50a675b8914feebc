/** The checkout page's CSP, same-origin relative URLs and hostile merchant/customer text (issue 13 section 3). */
import { describe, expect, test } from "bun:test";
import { harness, newCharge, raw } from "../charges/support";
import { createPayment } from "../payments/support";
import { checkoutLinks } from "../../src/web/checkout/links";
import { TEXT_LIMITS } from "../../src/web/checkout/page";

/** Every URL-valued attribute of the page. */
const urls = (html: string) =>
  [...html.matchAll(/\s(?:src|href|data-url|data-status-url|action)="([^"]*)"/g)].map((m) =>
    m[1]!.replaceAll("&amp;", "&"),
  );
const ASSET = (ext: string) => new RegExp(`^assets/checkout-[0-9a-f]{16}\\.${ext}$`);

describe("the checkout page's content security policy", () => {
  test("allows no inline script or style, only same-origin files, fetches and images, and is never framed", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    const r = await h.call("GET", `/c/${raw(c.id)}`);
    expect(r.headers.get("content-security-policy")).toBe(
      "default-src 'none'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    const scripts = [...r.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(1);
    expect(scripts[0]![2]).toBe("");
    const src = /^ src="([^"]+)" defer$/.exec(scripts[0]![1]!)![1]!;
    expect(src).toMatch(ASSET("js"));
    const links = [...r.text.matchAll(/<link[^>]*>/g)].map((m) => m[0]);
    expect(links.length).toBe(2);
    const href = /^<link rel="stylesheet" href="([^"]+)">$/.exec(links[0]!)![1]!;
    expect(href).toMatch(ASSET("css"));
    // The favicon, same-origin (img-src 'self'), so no browser asks for a missing /favicon.ico.
    expect(links[1]).toBe('<link rel="icon" href="../favicon.ico">');
    const icon = await h.call("GET", "/favicon.ico");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/x-icon");
    expect(r.text).not.toMatch(/<style|\sstyle=|\son[a-z]+=|@import|javascript:/i);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("referrer-policy")).toBe("no-referrer");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("its stylesheet and script are served next to the page, cacheable for good, and an unknown asset is 404", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    const page = `/c/${raw(c.id)}`;
    const r = await h.call("GET", page);
    const [script, style] = [
      /<script src="([^"]+)"/.exec(r.text)![1]!,
      /<link rel="stylesheet" href="([^"]+)"/.exec(r.text)![1]!,
    ];
    for (const [rel, type, needle] of [
      [script, "text/javascript; charset=utf-8", "data-sandbox-pay"],
      [style, "text/css; charset=utf-8", "box-sizing"],
    ] as const) {
      const path = new URL(rel, `http://localhost${page}`).pathname;
      expect(path.startsWith("/c/assets/checkout-")).toBe(true);
      const f = await h.call("GET", path);
      expect(f.status).toBe(200);
      expect(f.headers.get("content-type")).toBe(type);
      expect(f.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(f.text).toContain(needle);
      const again = await h.call("GET", path, { headers: { "if-none-match": f.headers.get("etag")! } });
      expect(again.status).toBe(304);
    }
    for (const bad of ["/c/assets/checkout-0000000000000000.js", "/c/assets/nope.css"])
      expect((await h.call("GET", bad)).status).toBe(404);
  });

  test("the 404 page is under the same policy and loads the same stylesheet", async () => {
    const h = harness();
    const r = await h.call("GET", "/c/0123456789abcdef0123456789abcdef");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-security-policy")).toContain("style-src 'self'; script-src 'self'");
    expect(r.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(r.text)![1]!;
    expect((await h.call("GET", `/c/${href}`)).status).toBe(200);
    expect(r.text).not.toMatch(/<style|<script/);
  });
});

describe("the checkout page's URLs", () => {
  test("are relative to the page, so they resolve on whatever host the payer used", async () => {
    const h = harness(); // COFRE_PUBLIC_URL https://pay.cofre.test
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { paymentMethods: ["PIX", "BOLETO", "CREDIT_CARD", "CRYPTO"] });
    const r = await h.call("GET", `/c/${p.id}`);
    const found = urls(r.text);
    expect(found.length).toBeGreaterThanOrEqual(6);
    for (const u of found) {
      expect(u).not.toMatch(/^[a-z]+:|^\/\//i); // no scheme, no host
      expect(u).not.toContain("pay.cofre.test");
    }
    // Resolved against a LAN address, every one lands on this server's own routes.
    const pageUrl = `http://192.168.0.20:3000/c/${p.id}`;
    const resolved = found
      .map((u) => new URL(u, pageUrl).href)
      .filter((u) => !u.includes("/assets/"))
      .sort();
    expect(found.filter((u) => u.startsWith("assets/")).length).toBe(2);
    expect(resolved).toEqual(
      [
        `http://192.168.0.20:3000/c/${p.id}/status`,
        `http://192.168.0.20:3000/c/${p.id}/simulate`,
        `http://192.168.0.20:3000/c/${p.id}/pay`,
        `http://192.168.0.20:3000/c/${p.id}/pay`,
        `http://192.168.0.20:3000/c/${p.id}/card`,
        `http://192.168.0.20:3000/v1/qr/${p.id}.png`,
        `http://192.168.0.20:3000/v1/boletos/${p.id}.pdf`,
        "http://192.168.0.20:3000/favicon.ico",
      ].sort(),
    );
    expect((await h.call("GET", `/v1/qr/${p.id}.png`)).status).toBe(200);
    expect((await h.call("GET", `/v1/boletos/${p.id}.pdf`)).status).toBe(200);
    expect((await h.call("GET", `/c/${p.id}/status`)).status).toBe(200);
  });

  test("climb one level per segment of the checkout path to reach the QR and the boleto", () => {
    const id = "0123456789abcdef0123456789abcdef";
    for (const [path, page] of [
      ["/c", `/c/${id}`],
      ["/pagar/aqui", `/pagar/aqui/${id}`],
      ["", `/${id}`],
    ] as const) {
      const l = checkoutLinks(path, id);
      const at = (u: string) => new URL(u, `http://host.example${page}`).pathname;
      expect(at(l.qr)).toBe(`/v1/qr/${id}.png`);
      expect(at(l.boletoPdf)).toBe(`/v1/boletos/${id}.pdf`);
      expect(at(l.status)).toBe(`${page}/status`);
      expect(at(l.simulate)).toBe(`${page}/simulate`);
      expect(at(l.pay)).toBe(`${page}/pay`);
      expect(at(l.card)).toBe(`${page}/card`);
      expect(at(l.style)).toMatch(new RegExp(`^${path}/assets/checkout-[0-9a-f]{16}\\.css$`));
      expect(at(l.script)).toMatch(new RegExp(`^${path}/assets/checkout-[0-9a-f]{16}\\.js$`));
    }
  });

  test("under a two-segment checkout path the QR still loads", async () => {
    const h = harness({ checkoutUrlBase: "https://pay.cofre.test/loja/pagar" });
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    const r = await h.call("GET", `/loja/pagar/${raw(c.id)}`);
    expect(r.status).toBe(200);
    const qr = /<img class="qr" src="([^"]+)"/.exec(r.text)![1]!;
    expect(qr).toBe(`../../v1/qr/${raw(c.id)}.png`);
    const png = await h.call("GET", new URL(qr, `http://localhost/loja/pagar/${raw(c.id)}`).pathname);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    const css = /<link rel="stylesheet" href="([^"]+)"/.exec(r.text)![1]!;
    expect((await h.call("GET", new URL(css, `http://localhost/loja/pagar/${raw(c.id)}`).pathname)).status).toBe(200);
  });
});

describe("hostile merchant and customer text", () => {
  const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>\u202Eevil`;

  test("is escaped, bidi-isolated and clipped, so it renders as text", async () => {
    const h = harness();
    const merchant = `Loja ${HOSTILE} ${"m".repeat(10_000)}`; // account names have no API bound (cofre init)
    const a = await h.seedAccount({ name: merchant });
    const description = `${HOSTILE} ${"x".repeat(500 - HOSTILE.length - 1)}`; // the API's longest description
    const c = await newCharge(h, a, { description, customer: { name: `</textarea><b>${"\u05e9".repeat(5)}</b>` } });
    const r = await h.call("GET", `/c/${raw(c.id)}`);
    expect(r.status).toBe(200);
    const m = r.text;
    expect(m).not.toContain("<script>alert");
    expect(m).not.toContain("<img src=x");
    expect(m).not.toContain("<b>");
    const esc = `&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;\u202Eevil`;
    const unescapeHtml = (s: string) =>
      s
        .replaceAll("&quot;", '"')
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">")
        .replaceAll("&#39;", "'")
        .replaceAll("&amp;", "&");
    const shownMerchant = /data-testid="merchant"><bdi>([^<]*)<\/bdi>/.exec(m)![1]!;
    expect(shownMerchant.startsWith(`Loja ${esc}`)).toBe(true);
    expect(unescapeHtml(shownMerchant)).toBe(
      `${Array.from(merchant)
        .slice(0, TEXT_LIMITS.merchant - 1)
        .join("")}…`,
    );
    const shownDescription = /data-testid="description"><bdi>([^<]*)<\/bdi>/.exec(m)![1]!;
    expect(unescapeHtml(shownDescription)).toBe(
      `${Array.from(description)
        .slice(0, TEXT_LIMITS.description - 1)
        .join("")}…`,
    );
    expect(m).toContain(
      `data-testid="customer">Pagador: <bdi>&lt;/textarea&gt;&lt;b&gt;${"\u05e9".repeat(5)}&lt;/b&gt;</bdi>`,
    );
    expect(r.text.length).toBeLessThan(20_000);
    expect(r.text).toContain(`<title>Pagamento — Loja ${esc}`);
    // The charge itself keeps the full text: only the page clips it.
    expect((await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey })).body.metadata.description).toBe(
      description,
    );
  });
});
