/**
 * Creates one resource of every kind the app serves (through the public API and the sandbox
 * test helpers) in one account's test mode, for the isolation matrix. A kind whose creation
 * route is not wired (404) or fails is skipped and listed in `missing` with the reason.
 */
import type { Harness, SeededAccount } from "../support/harness";

export type Kind =
  | "charge"
  | "payment"
  | "refund"
  | "med_case"
  | "evidence"
  | "webhook_endpoint"
  | "webhook_delivery"
  | "api_key"
  | "member"
  | "event"
  | "payout_destination"
  | "payout";

export interface Resources {
  ids: Partial<Record<Kind, string>>;
  /** `kind: why it was not created`. */
  missing: string[];
  /** GET paths (with the owner's test key unless marked bearer) whose answers must not change. */
  reads: { path: string; bearer?: boolean }[];
}

const WEBHOOK_URL = "https://hooks.example.com/cofre";

/**
 * Creates A's resources in test mode. `bearer` is A's dashboard token (for the API key); the
 * webhook endpoint is registered first so the charges produce deliveries.
 */
export async function createResources(h: Harness, a: SeededAccount, bearer?: string): Promise<Resources> {
  const res: Resources = { ids: {}, missing: [], reads: [] };
  const key = a.testKey;
  let n = 0;
  const idem = () => ({ "idempotency-key": `isolation-${a.accountId.slice(-10)}-${++n}` });
  const note = (kind: Kind, r: { status: number; text: string }) =>
    res.missing.push(`${kind}: ${r.status} ${r.text.slice(0, 160)}`);

  const wh = await h.call("POST", "/v1/webhooks/endpoints", {
    key,
    body: { url: WEBHOOK_URL, events: ["charge.created", "charge.paid", "payment.completed"] },
  });
  if (wh.status === 201) res.ids.webhook_endpoint = wh.body.id;
  else note("webhook_endpoint", wh);

  const customer = { name: "Pagador Teste", document: "52998224725" };
  const mkCharge = () =>
    h.call("POST", "/v1/pix/charges", { key, headers: idem(), body: { amount: 10_000, customer } });
  const charge = await mkCharge();
  if (charge.status === 201) res.ids.charge = charge.body.id;
  else note("charge", charge);

  // A paid charge for the refund, another for the MED case (a disputed charge cannot be refunded).
  const paid = async () => {
    const c = await mkCharge();
    if (c.status !== 201) return null;
    const p = await h.call("POST", `/v1/test_helpers/charges/${c.body.id}/pay`, { key, body: {} });
    return p.status === 200 ? (c.body.id as string) : null;
  };

  const pay = await h.call("POST", "/v1/payments", {
    key,
    body: { amount: 5_000, paymentMethods: ["PIX"], idempotencyKey: `isolation-pay-${a.accountId.slice(-10)}` },
  });
  if (pay.status === 201) res.ids.payment = pay.body.id;
  else note("payment", pay);

  const forRefund = await paid();
  if (forRefund) {
    const raw = forRefund.replace(/^ch_/, "");
    const r = await h.call("POST", `/v1/payments/${raw}/refund`, {
      key,
      body: { idempotencyKey: `isolation-refund-${a.accountId.slice(-10)}`, amount: 1_000 },
    });
    if (r.status === 201) res.ids.refund = r.body.id;
    else note("refund", r);
  } else res.missing.push("refund: no paid charge (charge creation or the pay helper is not wired)");

  const forMed = await paid();
  if (forMed) {
    const m = await h.call("POST", `/v1/test_helpers/charges/${forMed}/med`, { key, body: {} });
    if (m.status === 201) {
      res.ids.med_case = m.body.id;
      const ev = await h.call("POST", `/v1/med/cases/${m.body.id}/evidence`, {
        key,
        body: { file_name: "proof.pdf", file_size: 1024, mime_type: "application/pdf" },
      });
      if (ev.status === 201) res.ids.evidence = ev.body.id;
      else note("evidence", ev);
    } else note("med_case", m);
  } else res.missing.push("med_case: no paid charge (charge creation or the pay helper is not wired)");

  const ev = await h.call("GET", "/v1/events?limit=1", { key });
  if (ev.status === 200 && ev.body.data?.length) res.ids.event = ev.body.data[0].id;
  else note("event", ev);

  if (res.ids.webhook_endpoint) {
    const d = await h.call("GET", `/v1/webhooks/deliveries?endpointId=${res.ids.webhook_endpoint}`, { key });
    if (d.status === 200 && d.body.data?.length) res.ids.webhook_delivery = d.body.data[0].id;
    else note("webhook_delivery", d);
  }

  if (bearer) {
    const k = await h.call("POST", "/v1/api-keys", { bearer, body: { label: "isolation", test: true } });
    if (k.status === 201) res.ids.api_key = k.body.id;
    else note("api_key", k);
    const m = await h.call("POST", "/v1/account/members", {
      bearer,
      body: { email: `member-${a.accountId.slice(-10)}@example.com`, password: "isolation member 123", role: "VIEWER" },
    });
    if (m.status === 201) res.ids.member = m.body.id;
    else note("member", m);
    // A destination (dashboard session only) and a payout to it, paid from the refund's charge.
    const d = await h.call("POST", "/v1/payout_destinations", {
      bearer,
      body: { type: "pix_key", pix_key_type: "email", pix_key: `dest-${a.accountId.slice(-10)}@example.com` },
    });
    if (d.status === 201) {
      res.ids.payout_destination = d.body.id;
      const po = await h.call("POST", "/v1/payouts", {
        key,
        headers: idem(),
        body: { amount: 500, destination_id: d.body.id },
      });
      if (po.status === 201) res.ids.payout = po.body.id;
      else note("payout", po);
    } else note("payout_destination", d);
  } else res.missing.push("api_key, member, payout_destination, payout: no dashboard login");

  const ids = res.ids;
  if (ids.charge) res.reads.push({ path: `/v1/charges/${ids.charge}` });
  if (ids.event) res.reads.push({ path: `/v1/events/${ids.event}` }, { path: "/v1/events" });
  if (ids.payment) res.reads.push({ path: `/v1/payments/${ids.payment}` });
  if (forRefund)
    res.reads.push(
      { path: `/v1/payments/${forRefund.replace(/^ch_/, "")}/refunds` },
      { path: `/v1/charges/${forRefund}` },
    );
  if (ids.med_case)
    res.reads.push({ path: `/v1/med/cases/${ids.med_case}` }, { path: `/v1/med/cases/${ids.med_case}/evidence` });
  if (ids.webhook_endpoint) res.reads.push({ path: "/v1/webhooks/endpoints" }, { path: "/v1/webhooks/deliveries" });
  if (ids.payout)
    res.reads.push({ path: `/v1/payouts/${ids.payout}` }, { path: "/v1/payouts" }, { path: "/v1/payout_destinations" });
  res.reads.push(
    { path: "/v1/wallets/balance" },
    { path: "/v1/api-keys", bearer: true },
    { path: "/v1/account/members", bearer: true },
  );
  return res;
}

/**
 * The resource kind a route's `:param` names, decided by the path (null: unknown to the matrix).
 * `/v1/payments/:id` takes the payment id; its refund routes accept any transaction id.
 */
export function kindOf(path: string, param: string): Kind | null {
  if (param === "evidence_id") return "evidence";
  if (/^\/v1\/(med\/cases|infractions|test_helpers\/med\/cases|operator\/med\/cases)\//.test(path)) return "med_case";
  if (/^\/v1\/(charges|test_helpers\/charges)\//.test(path)) return "charge";
  if (path.startsWith("/v1/payments/")) return "payment";
  if (path.startsWith("/v1/test_helpers/refunds/")) return "refund";
  if (path.startsWith("/v1/webhooks/endpoints/")) return "webhook_endpoint";
  if (path.startsWith("/v1/webhooks/deliveries/")) return "webhook_delivery";
  if (path.startsWith("/v1/api-keys/")) return "api_key";
  if (path.startsWith("/v1/account/members/")) return "member";
  if (path.startsWith("/v1/events/")) return "event";
  if (path.startsWith("/v1/payout_destinations/")) return "payout_destination";
  if (/^\/v1\/(payouts|test_helpers\/payouts)\//.test(path)) return "payout";
  return null;
}

/** A body the route's schema accepts, so the ownership check (not validation) decides the answer. */
export function validBody(method: string, path: string, ids: Partial<Record<Kind, string>>): unknown {
  if (method === "GET" || method === "DELETE") return undefined;
  const table: [RegExp, unknown][] = [
    [/\/refund$/, { idempotencyKey: "isolation-cross-refund", amount: 100 }],
    [/\/appeal$/, { reason: "The payer received the goods." }],
    [/\/evidence$/, { file_name: "x.pdf", file_size: 10, mime_type: "application/pdf" }],
    [/\/test_helpers\/charges\/:id\/pay$/, {}],
    [/\/test_helpers\/charges\/:id\/med$/, {}],
    [/\/resolve$/, { outcome: "withdrawn" }],
    [/\/test_helpers\/refunds\/:id\/advance$/, { to: "REFUNDED" }],
    [/\/webhooks\/endpoints\/:id\/rotate-secret$/, { id: ids.webhook_endpoint ?? "wh_x" }],
    [/\/webhooks\/endpoints\/:id$/, { status: "INACTIVE" }],
    [/\/api-keys\/:id\/rotate$/, { label: "stolen" }],
    [/\/account\/members\/:id$/, { role: "ADMIN" }],
    [/\/payouts\/:id\/(cancel|pay)$/, {}],
    [/\/payouts\/:id\/fail$/, {}],
  ];
  for (const [re, body] of table) if (re.test(path)) return body;
  return undefined;
}
