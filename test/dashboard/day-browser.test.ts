/**
 * A merchant's day in the dashboard, end to end in one flow (issue 15 "Proof"): log in through
 * the form, switch to test mode, see a charge created through the API appear, refund it, answer
 * a MED with evidence, fix a failing webhook endpoint (its receiver refuses our signature: the
 * merchant rotates the secret and installs the new one) and retry its dead letter, issue and
 * revoke a key, log out; after logout the back button and a reload show the login form and the
 * old cookie is refused by the API (401).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Harness, SeededAccount } from "../support/harness";
import { deterministic, startReceiver, type Receiver } from "../webhooks/support";
import { hmacHex } from "../../src/lib/crypto";
import { send } from "./support";
import {
  endpoint,
  gone,
  paidPayment,
  servedHarness,
  settledText,
  signIn,
  spendDelivery,
  visit,
} from "./browser-support";

let h: Harness;
let base: string;
let a: SeededAccount;
let rx: Receiver;
/** The secret the merchant's receiver checks signatures with: wrong until the merchant fixes it. */
let installedSecret = "0".repeat(64);

/** Centavos as the merchant reads them (oracle independent of Intl). */
function brl(cents: number): string {
  const int = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `R$ ${int},${String(cents % 100).padStart(2, "0")}`;
}

/** True when one `v1=` of `X-Cofre-Signature: t=<unix>,v1=<hex>` is HMAC-SHA256("<t>.<body>") under `secret` (interface.md "Headers and signatures"). */
function verifies(header: string | undefined, body: string, secret: string): boolean {
  const parts = (header ?? "").split(",");
  const t = parts.find((p) => p.startsWith("t="))?.slice(2);
  return !!t && parts.some((p) => p === `v1=${hmacHex(secret, `${t}.${body}`)}`);
}

beforeAll(async () => {
  ({ h, base } = servedHarness({ webhookAllowPrivate: true }));
  deterministic(h);
  a = await h.seedAccount({ name: "Padaria Pão Quente" });
  rx = startReceiver((_, req) =>
    verifies(req.headers["x-cofre-signature"], req.body, installedSecret)
      ? new Response("ok")
      : new Response("bad signature", { status: 401 }),
  );
  await endpoint(h, a.testKey, rx.url, ["charge.paid"]);
}, 60_000);

afterAll(async () => {
  rx?.stop();
  await h?.app.stop(true);
});

describe("a merchant's day in the dashboard", () => {
  test("log in, test mode, a new charge, a refund, a MED answered with evidence, a webhook fixed and its dead letter retried, a key issued and revoked, log out for good", async () => {
    const { context, page, errors } = await signIn(base, a.email, a.password);
    try {
      expect(await page.textContent('[data-testid="account-name"]')).toBe("Padaria Pão Quente");

      // Test mode (from live, where the merchant left it).
      await page.check('input[name="mode"][value="live"]');
      await page.waitForSelector('.shell[data-mode="live"]');
      expect(await page.locator(".sandbox").count()).toBe(0);
      await page.check('input[name="mode"][value="test"]');
      await page.waitForSelector(".sandbox");

      // A charge created through the API appears in the list.
      await visit(page, base, "#/payments", "text=Nenhum pagamento encontrado.");
      const paymentId = await paidPayment(h, a, 25990, "Maria Cliente");
      await visit(page, base, "#/payments", `tr[data-id="${paymentId}"]`);
      expect(await page.textContent(`tr[data-id="${paymentId}"] .num`)).toBe(brl(25990));
      expect(await page.textContent(`tr[data-id="${paymentId}"] .name`)).toBe("Maria Cliente");

      // The paid event reaches the receiver, which refuses the signature: a failing endpoint.
      await h.deps.jobs.drain();
      expect(rx.requests.length).toBe(1);
      const failed = (await h.call("GET", "/v1/webhooks/deliveries?eventType=charge.paid", { key: a.testKey })).body
        .data;
      expect(failed.map((d: any) => d.lastStatusCode)).toEqual([401]);
      await spendDelivery(h, failed[0].id, 401); // as after its last attempt

      // Refund it in full (the empty amount is the remaining amount).
      await page.click(`tr[data-id="${paymentId}"] a`);
      await page.waitForSelector("form.refund");
      await page.click('form.refund button[type="submit"]');
      expect(await page.textContent(".confirm p")).toBe(`Confirmar reembolso de ${brl(25990)}?`);
      await page.click(".confirm button >> text=Confirmar");
      await page.waitForSelector("text=Reembolso solicitado.");
      const refunds = (await h.call("GET", `/v1/payments/${paymentId}/refunds`, { key: a.testKey })).body.data;
      expect(refunds.map((r: any) => r.amount)).toEqual([25990]);
      expect(await gone(page, "form.refund")).toBe(true);

      // A MED on another payment, answered with evidence and an appeal.
      const disputed = await paidPayment(h, a, 8000, "Cliente Disputa");
      const med = await h.call("POST", `/v1/test_helpers/charges/ch_${disputed}/med`, {
        key: a.testKey,
        body: { reason: "scam", response_deadline: "2030-01-01T00:00:00.000Z" },
      });
      expect(med.status).toBeLessThan(300);
      await visit(page, base, "#/med", `tr[data-id="${med.body.id}"]`);
      await page.click(`tr[data-id="${med.body.id}"] a`);
      await page.waitForSelector('[data-testid="countdown"]');
      const pdf = Buffer.from("%PDF-1.4\n% nota fiscal e rastreio\n%%EOF\n");
      await page.setInputFiles('input[name="evidence"]', {
        name: "nota.pdf",
        mimeType: "application/pdf",
        buffer: pdf,
      });
      await page.waitForSelector("text=Evidência enviada.");
      await page.fill('form.appeal textarea[name="reason"]', "Entregue com nota fiscal; rastreio anexo.");
      await page.click('form.appeal button[type="submit"]');
      await page.waitForSelector("text=Contestação enviada.");
      expect(await settledText(page, '[data-testid="case-status"]', "Contestado")).toBe("Contestado");
      expect((await h.call("GET", `/v1/med/cases/${med.body.id}`, { key: a.testKey })).body).toMatchObject({
        status: "appealed",
        evidence_count: 1,
        appeal_reason: "Entregue com nota fiscal; rastreio anexo.",
      });

      // Fix the webhook: rotate the secret, install the new one in the receiver, retry the dead letter.
      await visit(page, base, "#/webhooks", `table.dead tr[data-id="${failed[0].id}"]`);
      expect(await page.textContent(`table.dead tr[data-id="${failed[0].id}"] td:nth-child(3)`)).toBe("401");
      await page.click("table.endpoints button >> text=Trocar segredo");
      await page.waitForSelector('[data-testid="secret"] code');
      installedSecret = (await page.textContent('[data-testid="secret"] code'))!;
      expect(installedSecret).toMatch(/^[0-9a-f]{64}$/);
      await page.click('[data-testid="secret"] button');
      await page.click(`table.dead tr[data-id="${failed[0].id}"] button`);
      await page.waitForSelector("text=Entrega reenfileirada.");
      await h.deps.jobs.drain();
      // The retried delivery's second request (the disputed payment's own charge.paid also arrives now).
      const retried = rx.requests.filter((r) => r.headers["x-cofre-delivery-id"] === failed[0].id);
      expect(retried.length).toBe(2);
      expect(retried.map((r) => verifies(r.headers["x-cofre-signature"], r.body, installedSecret))).toEqual([
        false,
        true,
      ]);
      const delivered = (await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paymentId}`, { key: a.testKey }))
        .body.data;
      expect(delivered.map((d: any) => [d.id, d.status, d.lastStatusCode])).toEqual([[failed[0].id, "DELIVERED", 200]]);
      await visit(page, base, "#/webhooks", "text=Nenhuma entrega falhou.");

      // Issue a key, see it work, revoke it.
      await visit(page, base, "#/developers", "form.new-key");
      await page.fill('form.new-key input[name="label"]', "loja online");
      await page.click('form.new-key button[type="submit"]');
      await page.waitForSelector('[data-testid="issued-key"] code');
      const clear = (await page.textContent('[data-testid="issued-key"] code'))!;
      expect((await h.call("GET", "/v1/ping", { key: clear })).status).toBe(200);
      await page.click('[data-testid="issued-key"] button');
      await page.locator("table.keys tr", { hasText: "loja online" }).locator("button >> text=Revogar").click();
      await page.waitForSelector("table.keys tr >> text=loja online", { state: "detached" });
      expect((await h.call("GET", "/v1/ping", { key: clear })).status).toBe(401);

      // Log out: the login form, also after back and reload; the old cookie is refused.
      const cookie = (await context.cookies()).find((c) => c.name === "cofre_session")!;
      expect(cookie).toBeDefined();
      expect((await send(h, "GET", "/v1/payments", { cookie: `cofre_session=${cookie.value}` })).status).toBe(200);
      await page.click("header.bar button >> text=Sair");
      await page.waitForSelector('input[name="password"]');
      await page.goBack();
      await page.waitForSelector('input[name="password"]');
      expect(await page.locator('[data-testid="account-name"]').count()).toBe(0);
      await page.reload();
      await page.waitForSelector('input[name="password"]');
      expect(await page.locator('[data-testid="account-name"]').count()).toBe(0);
      for (const path of ["/v1/auth/session", "/v1/payments"])
        expect([path, (await send(h, "GET", path, { cookie: `cofre_session=${cookie.value}` })).status]).toEqual([
          path,
          401,
        ]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
