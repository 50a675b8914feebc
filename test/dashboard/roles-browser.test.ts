/**
 * The dashboard per role in Chromium (issue 15 "Proof": a role test per role). Each role logs in
 * through the real login form (one tab, emptied between roles by `signInAgain`) and walks the payment detail, the MED
 * case, webhooks and developers: which controls show (VIEWER none; DEVELOPER webhooks only; ADMIN and OWNER all),
 * and every action the page hides is refused by the server anyway when forced from the page with
 * its own CSRF token (403 `role_forbidden`; keys and members: 403 `API_KEY_ROLE_REQUIRED`, their
 * spec'd code), with the account's state unchanged.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { Harness, SeededAccount } from "../support/harness";
import { addMember, loginToken } from "../auth/support";
import {
  endpoint,
  forced,
  openMed,
  paidPayment,
  servedHarness,
  signIn,
  signInAgain,
  spendDelivery,
  visit,
  waitingPayment,
  type Tab,
} from "./browser-support";

type Role = "OWNER" | "ADMIN" | "DEVELOPER" | "VIEWER";

/** The file's one tab, signed in as each role in turn. */
let reused: Tab | undefined;
let h: Harness;
let base: string;
let a: SeededAccount;
let paid: string;
let waiting: string;
let medCase: string;
let hook: { id: string };
let dead: string;
let keyId: string;

/** Every change a role might try, with the body the API needs. */
function actions() {
  return {
    refund: ["POST", `/v1/payments/${paid}/refund`, { idempotencyKey: `role-${crypto.randomUUID()}`, amount: 100 }],
    cancel: ["POST", `/v1/payments/${waiting}/cancel`, {}],
    appeal: ["POST", `/v1/med/cases/${medCase}/appeal`, { reason: "Produto entregue ao cliente." }],
    accept: ["POST", `/v1/med/cases/${medCase}/accept`, {}],
    evidence: [
      "POST",
      `/v1/med/cases/${medCase}/evidence`,
      { file_name: "x.pdf", file_size: 10, mime_type: "application/pdf" },
    ],
    createEndpoint: [
      "POST",
      "/v1/webhooks/endpoints",
      { url: "https://forced.example.com/hook", events: ["charge.paid"] },
    ],
    pauseEndpoint: ["PATCH", `/v1/webhooks/endpoints/${hook.id}`, { status: "INACTIVE" }],
    rotateSecret: ["POST", `/v1/webhooks/endpoints/${hook.id}/rotate-secret`, { id: hook.id }],
    deleteEndpoint: ["DELETE", `/v1/webhooks/endpoints/${hook.id}`, undefined],
    retry: ["POST", `/v1/webhooks/deliveries/${dead}/retry`, {}],
    issueKey: ["POST", "/v1/api-keys", { label: "forced", test: true }],
    revokeKey: ["DELETE", `/v1/api-keys/${keyId}`, undefined],
    addMember: [
      "POST",
      "/v1/account/members",
      { email: `forced-${crypto.randomUUID()}@example.com`, password: "forced password 123", role: "OWNER" },
    ],
  } as Record<string, [string, string, unknown]>;
}

/** What the API says of everything those actions could change (read with the owner's key and token). */
async function state(): Promise<string> {
  const bearer = await loginToken(h, a.email, a.password);
  const reads = await Promise.all([
    h.call("GET", `/v1/payments/${paid}/refunds`, { key: a.testKey }),
    h.call("GET", `/v1/payments/${waiting}`, { key: a.testKey }),
    h.call("GET", `/v1/med/cases/${medCase}`, { key: a.testKey }),
    h.call("GET", `/v1/med/cases/${medCase}/evidence`, { key: a.testKey }),
    h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey }),
    h.call("GET", "/v1/webhooks/deliveries?status=FAILED", { key: a.testKey }),
    h.call("GET", "/v1/api-keys", { bearer }),
    h.call("GET", "/v1/account/members", { bearer }),
  ]);
  for (const r of reads) expect(r.status).toBe(200);
  // The endpoint list's secrets are not part of it; the rest is compared as a whole.
  return JSON.stringify(reads.map((r) => r.body));
}

/** Label of the payment detail's resend button (pt-BR, src/web/dashboard/app/i18n.ts). */
const RESEND_LABEL = "Reenviar webhook";

/** Counts of the controls a role might see on each page. */
async function controls(page: Page) {
  await visit(page, base, `#/payments/${paid}`, '[data-testid="customer-name"]');
  const refundForm = await page.locator("form.refund").count();
  await visit(page, base, `#/payments/${waiting}`, '[data-testid="customer-name"]');
  const cancelButton = await page.locator(".actions button", { hasText: "Cancelar cobrança" }).count();
  const receiptButton = await page.locator(".actions button", { hasText: "Baixar recibo" }).count();
  const resendButton = await page.locator(".actions button", { hasText: RESEND_LABEL }).count();
  await visit(page, base, `#/med/${medCase}`, '[data-testid="case-status"]');
  const medAnswer = await page.locator("form.appeal, .med-actions button, input[name=evidence]").count();
  await visit(page, base, "#/webhooks", "h2");
  await page.waitForSelector(`table.endpoints tr[data-id="${hook.id}"]`);
  await page.waitForSelector(`table.dead tr[data-id="${dead}"]`);
  const webhookControls = await page
    .locator(
      `form.new-endpoint, table.endpoints tr[data-id="${hook.id}"] button, table.dead tr[data-id="${dead}"] button`,
    )
    .count();
  await visit(page, base, "#/developers", "table.keys");
  await page.waitForSelector(`table.keys tr[data-id="${keyId}"]`);
  await page.waitForSelector("table.members tbody tr");
  const keyControls = await page.locator(`form.new-key, table.keys tr[data-id="${keyId}"] button`).count();
  const memberForm = await page.locator("form.new-member").count();
  const audit = await page.locator("h2", { hasText: "Log de auditoria" }).count();
  return {
    refundForm,
    cancelButton,
    receiptButton,
    resendButton,
    medAnswer,
    webhookControls,
    keyControls,
    memberForm,
    audit,
  };
}

// Webhook controls: the new-endpoint form, the endpoint row's pause, edit, rotate and delete, the dead letter's retry.
const ALL = {
  refundForm: 1,
  cancelButton: 1,
  receiptButton: 1,
  resendButton: 1,
  medAnswer: 4,
  webhookControls: 6,
  keyControls: 3,
  memberForm: 1,
  audit: 1,
};
const SEES: Record<Role, typeof ALL> = {
  OWNER: ALL,
  ADMIN: ALL,
  DEVELOPER: { ...ALL, refundForm: 0, cancelButton: 0, medAnswer: 0, keyControls: 0, memberForm: 0, audit: 0 },
  VIEWER: {
    ...ALL,
    refundForm: 0,
    cancelButton: 0,
    resendButton: 0,
    medAnswer: 0,
    webhookControls: 0,
    keyControls: 0,
    memberForm: 0,
    audit: 0,
  },
};
/** The actions each role may not take (the server's rule, src/domain/auth/dashboard-roles.ts). */
const FORBIDDEN: Record<Role, string[]> = {
  OWNER: [],
  ADMIN: [],
  DEVELOPER: ["refund", "cancel", "appeal", "accept", "evidence", "issueKey", "revokeKey", "addMember"],
  VIEWER: [
    "refund",
    "cancel",
    "appeal",
    "accept",
    "evidence",
    "createEndpoint",
    "pauseEndpoint",
    "rotateSecret",
    "deleteEndpoint",
    "retry",
    "issueKey",
    "revokeKey",
    "addMember",
  ],
};

/** Keys and members answer their own spec'd code (interface.md "API keys" 5; extensions.md "members"): the session's role rule lets bearer routes through to it. */
const REFUSAL_CODE: Record<string, string> = {
  issueKey: "API_KEY_ROLE_REQUIRED",
  revokeKey: "API_KEY_ROLE_REQUIRED",
  addMember: "API_KEY_ROLE_REQUIRED",
};

beforeAll(async () => {
  ({ h, base } = servedHarness());
  h.subscribeAllEvents = true;
  a = await h.seedAccount({ name: "Padaria dos Papéis" });
  paid = await paidPayment(h, a, 20000, "Cliente Pago");
  waiting = await waitingPayment(h, a, 3000, "Cliente Esperando");
  const med = await paidPayment(h, a, 5000, "Cliente MED");
  medCase = await openMed(h, a, med);
  hook = await endpoint(h, a.testKey, "https://shop.example.com/roles-hook");
  const d = (await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paid}`, { key: a.testKey })).body.data[0];
  dead = d.id;
  await spendDelivery(h, dead);
  const owner = await loginToken(h, a.email, a.password);
  const k = await h.call("POST", "/v1/api-keys", { bearer: owner, body: { label: "chave de teste", test: true } });
  expect(k.status).toBe(201);
  keyId = k.body.id;
}, 60_000);

afterAll(async () => {
  await reused?.context.close();
  await h?.app.stop(true);
});

async function member(role: Role): Promise<{ email: string; password: string }> {
  if (role === "OWNER") return a;
  return addMember(h, await loginToken(h, a.email, a.password), role);
}

/** The file's one tab signed in through the login form as `m`: a fresh context the first time, then emptied and reused. */
async function signedIn(m: { email: string; password: string }): Promise<Tab> {
  reused = reused ? await signInAgain(reused, base, m.email, m.password) : await signIn(base, m.email, m.password);
  return reused;
}

const ROLE_WORDS = {
  OWNER: "Proprietário",
  ADMIN: "Administrador",
  DEVELOPER: "Desenvolvedor",
  VIEWER: "Leitor",
} as const;

describe("dashboard roles in the browser", () => {
  for (const role of ["VIEWER", "DEVELOPER", "ADMIN", "OWNER"] as const) {
    test(`${role === "VIEWER" || role === "DEVELOPER" ? "a" : "an"} ${role} sees ${role === "VIEWER" ? "no control that changes anything" : role === "DEVELOPER" ? "webhook controls only" : "every control"}, and the server refuses whatever the role may not do even when forced from the page`, async () => {
      const m = await member(role);
      const tab = await signedIn(m);
      // The role in pt-BR (labels.tsx), its code on hover.
      expect(await tab.page.textContent(".who")).toBe(`${m.email} (${ROLE_WORDS[role]})`);
      expect(await tab.page.getAttribute(".who [data-code]", "title")).toBe(role);
      expect(await controls(tab.page)).toEqual(SEES[role]);
      const before = await state();
      const all = actions();
      const refused: Record<string, unknown> = {};
      for (const name of FORBIDDEN[role]) {
        const [method, path, body] = all[name]!;
        refused[name] = await forced(tab.page, method, path, body);
      }
      expect(refused).toEqual(
        Object.fromEntries(FORBIDDEN[role].map((n) => [n, { status: 403, code: REFUSAL_CODE[n] ?? "role_forbidden" }])),
      );
      expect(await state()).toBe(before);
      expect(tab.errors).toEqual([]);
    }, 60_000);
  }

  test("a DEVELOPER's webhook changes from the page go through: pausing the endpoint and retrying the dead letter", async () => {
    const m = await member("DEVELOPER");
    const tab = await signedIn(m);
    await visit(tab.page, base, "#/webhooks", `table.endpoints tr[data-id="${hook.id}"]`);
    await tab.page.click(`tr[data-id="${hook.id}"] button >> text=Pausar`);
    await tab.page.waitForSelector(`tr[data-id="${hook.id}"] button >> text=Ativar`);
    expect(
      (await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey })).body.data.find((e: any) => e.id === hook.id)
        .status,
    ).toBe("INACTIVE");
    await tab.page.click(`table.dead tr[data-id="${dead}"] button`);
    await tab.page.waitForSelector("text=Entrega reenfileirada.");
    const after = (
      await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paid}`, { key: a.testKey })
    ).body.data.find((x: any) => x.id === dead);
    expect(after.status).not.toBe("FAILED");
  }, 60_000);
});
