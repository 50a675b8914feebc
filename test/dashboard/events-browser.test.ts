/**
 * Eventos on the Developers page in Chromium (issue 28 §4): the last 30 days' canonical events of
 * the mode, newest first, filtered by type; a row opens the payload exactly as the events API (and
 * the webhook) has it, with the event's deliveries; a failed delivery is re-sent from there.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Harness, SeededAccount } from "../support/harness";
import { testDb } from "../support/test-db";
import { servedHarness, signIn, visit, type Tab } from "./browser-support";
import { deterministic, register, startReceiver, type Receiver } from "../webhooks/support";

let h: Harness;
let base: string;
let a: SeededAccount;
let tab: Tab;
let rx: Receiver;
let paid: string;
let created: string;

beforeAll(async () => {
  ({ h, base } = servedHarness({ webhookAllowPrivate: true }));
  deterministic(h);
  a = await h.seedAccount({ name: "Loja dos Eventos" });
  rx = startReceiver();
  await register(h, a.testKey, rx.url, ["charge.paid"]);
  for (const [i, pay] of [
    [1, true],
    [2, false],
  ] as const) {
    const c = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "idempotency-key": `events-browser-${i}` },
      body: { amount: 1990 },
    });
    expect(c.status).toBe(201);
    if (pay) {
      expect(
        (await h.call("POST", `/v1/test_helpers/charges/${c.body.id}/pay`, { key: a.testKey, body: {} })).status,
      ).toBe(200);
      paid = c.body.id;
    } else created = c.body.id;
  }
  await h.deps.jobs.drain();
  tab = await signIn(base, a.email, a.password);
}, 60_000);

afterAll(async () => {
  await tab?.context.close();
  rx?.stop();
  await h?.app.stop(true);
});

/** Each row's event type (the raw code behind its pt-BR label) and object id. */
const rows = async () =>
  tab.page.$$eval("table.events tbody tr[data-id]", (trs) =>
    trs.map((tr) => {
      const [type, id] = Array.from(tr.querySelectorAll("td")).slice(0, 2);
      return [type?.querySelector("[data-code]")?.getAttribute("data-code"), id?.textContent?.trim()];
    }),
  );

describe("Eventos in the browser", () => {
  test("lists every canonical event of the mode newest first, in Portuguese, and filters by type and family", async () => {
    const { page, errors } = tab;
    await visit(page, base, "#/developers", "table.events tbody tr[data-id]");
    expect(await page.textContent("#events-title")).toBe("Eventos");
    expect(await page.textContent("table.events tbody tr[data-id] td [data-code]")).toBe("Cobrança criada");
    expect(await rows()).toEqual([
      ["charge.created", created],
      ["charge.paid", paid],
      ["charge.created", paid],
    ]);
    await page.selectOption('select[name="event-type"]', "charge.paid");
    await page.waitForFunction(() => document.querySelectorAll("table.events tbody tr[data-id]").length === 1);
    expect(await rows()).toEqual([["charge.paid", paid]]);
    await page.selectOption('select[name="event-type"]', "payout.*");
    await page.waitForSelector("text=Nenhum evento nos últimos 30 dias.");
    expect(errors).toEqual([]);
  }, 60_000);

  test("a row shows the payload exactly as delivered, and a failed delivery of it is re-sent", async () => {
    const { page, errors } = tab;
    const delivered = JSON.parse(rx.requests[0]!.body);
    // The delivery ended FAILED (as after its last attempt): it may be re-sent.
    await testDb(h.deps).run("update webhook_deliveries set status = 'FAILED' where event_id = ?", delivered.id);
    await visit(page, base, "#/developers", "table.events tbody tr[data-id]");
    await page.click(`table.events tr[data-id="${delivered.id}"] button >> text=Ver payload`);
    const payload = await page.waitForSelector('[data-testid="event-payload"]');
    expect(JSON.parse((await payload.textContent())!)).toEqual(delivered);
    await page.click("ul.event-deliveries button >> text=Reenviar webhook");
    await page.waitForSelector("p.notice >> text=Entrega reenviada.");
    await h.deps.jobs.drain();
    expect(rx.requests.length).toBe(2);
    expect(rx.requests[1]!.body).toBe(rx.requests[0]!.body);
    expect(errors).toEqual([]);
  }, 60_000);
});
