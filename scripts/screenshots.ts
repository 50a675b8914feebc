/**
 * `bun run screenshots`: a screenshot of every dashboard page, desktop (1280 px) and phone
 * (390 px), saved under docs/screenshots/<page>-<desktop|phone>.png. Runs the app in process on
 * an in-memory database with a sandbox account and a few payments, a MED case, a webhook
 * endpoint, payout destinations and payouts, and drives Debian chromium (test/support/browser.ts; fails loudly without
 * it).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createHarness } from "../test/support/harness";
import { launchChromium } from "../test/support/browser";

const OUT = join(import.meta.dir, "..", "docs", "screenshots");
mkdirSync(OUT, { recursive: true });

const h = createHarness();
h.subscribeAllEvents = true;
h.app.listen({ port: 0, hostname: "127.0.0.1" });
const base = `http://127.0.0.1:${h.app.server!.port}`;
h.deps.config.publicUrl = base;
h.deps.config.checkoutUrlBase = `${base}/c`;
// Payments settle at once (the Saques page has a balance to pay out); payouts wait an hour (pending, cancellable).
const a = await h.seedAccount({
  name: "Padaria Pão Quente",
  settings: { settlementDelaySeconds: 0, payoutDelaySeconds: 3600, payoutFeeFixed: 150 },
});

async function post(path: string, body: unknown) {
  const r = await h.call("POST", path, { key: a.testKey, body });
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.text}`);
  return r.body;
}
const pay = async (amount: number, customerName: string, paid = true) => {
  const p = await post("/v1/payments", {
    amount,
    paymentMethods: ["PIX"],
    idempotencyKey: `shot-${crypto.randomUUID()}`,
    customerName,
  });
  if (paid) await post(`/v1/test_helpers/charges/${p.id}/pay`, {});
  return p;
};
const first = await pay(123456, "Ana Souza");
await pay(4590, "João Pereira");
await pay(18900, "Maria Oliveira", false);
const disputed = await pay(25000, "Carlos Lima");
await post(`/v1/payments/${first.id}/refund`, { idempotencyKey: `shot-${crypto.randomUUID()}`, amount: 10000 });
const med = await post(`/v1/test_helpers/charges/ch_${disputed.id}/med`, {
  reason: "scam",
  response_deadline: "2030-01-01T00:00:00.000Z",
});
await post("/v1/webhooks/endpoints", {
  url: "https://loja.example.com/webhooks/cofre",
  events: ["charge.paid", "charge.refunded"],
});
// Saques: destinations are registered with the owner's session (an API key cannot add one); three payouts, one paid, one cancelled.
const login = await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password } });
const destination = async (body: unknown) => {
  const r = await h.call("POST", "/v1/payout_destinations", { bearer: login.body.access_token, body });
  if (r.status !== 201) throw new Error(`/v1/payout_destinations: ${r.status} ${r.text}`);
  return r.body;
};
const pixDestination = await destination({
  type: "pix_key",
  pix_key_type: "email",
  pix_key: "financeiro@paoquente.example.com",
  name: "Padaria Pão Quente Ltda.",
});
await destination({
  type: "bank_account",
  name: "Padaria Pão Quente Ltda.",
  tax_id: "11222333000181",
  ispb: "00000000",
  branch: "1234",
  account: "567890",
  account_type: "checking",
});
const payout = async (amount: number, description: string) => {
  const r = await h.call("POST", "/v1/payouts", {
    key: a.testKey,
    headers: { "idempotency-key": `shot-${crypto.randomUUID()}` },
    body: { amount, destination_id: pixDestination.id, description },
  });
  if (r.status !== 201) throw new Error(`/v1/payouts: ${r.status} ${r.text}`);
  return r.body;
};
const paidPayout = await payout(50000, "Saque semanal");
await post(`/v1/test_helpers/payouts/${paidPayout.id}/pay`, {});
await post(`/v1/payouts/${(await payout(12000, "Fornecedor")).id}/cancel`, {});
const pendingPayout = await payout(30000, "Saque do dia");

const PAGES: [string, string, string][] = [
  ["home", "#/", ".chart canvas"],
  ["payments", "#/payments", "tbody tr"],
  ["payment", `#/payments/${first.id}`, '[data-testid="customer-name"]'],
  ["payouts", "#/payouts", "table.payouts tbody tr"],
  ["payout", `#/payouts/${pendingPayout.id}`, '[data-testid="payout-status"]'],
  ["statement", "#/statement", "table.statement-lines tbody tr"],
  ["med", "#/med", "tbody tr"],
  ["med-case", `#/med/${med.id}`, '[data-testid="case-status"]'],
  ["webhooks", "#/webhooks", "form.new-endpoint"],
  ["developers", "#/developers", "form.new-key"],
  ["settings", "#/settings", '[data-testid="pix-fee"]'],
];

const browser = await launchChromium();
try {
  for (const [form, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${base}/dashboard`);
    await page.waitForSelector('input[name="email"]');
    await page.screenshot({ path: join(OUT, `login-${form}.png`), fullPage: true });
    await page.fill('input[name="email"]', a.email);
    await page.fill('input[name="password"]', a.password);
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-testid="account-name"]');
    for (const [name, hash, ready] of PAGES) {
      await page.goto(`${base}/dashboard${hash}`);
      await page.waitForSelector(ready);
      await page.screenshot({ path: join(OUT, `${name}-${form}.png`), fullPage: true });
      console.log(`docs/screenshots/${name}-${form}.png`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await h.app.stop(true);
}
