/**
 * GET /metrics (extensions.md "Operations"; docs/operations.md): 404 without COFRE_METRICS_TOKEN,
 * 401 without the right bearer token, else the Prometheus text format with request, transition,
 * webhook, queue, job, PSP, transaction and process metrics, whose labels hold route patterns and
 * names but never an id.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createHarness, type Harness } from "../support/harness";
import { deterministic, register, startReceiver, type Receiver } from "../webhooks/support";

const TOKEN = "metrics-token-for-tests";
const receivers: Receiver[] = [];
afterEach(() => {
  while (receivers.length) receivers.pop()!.stop();
});

const scrape = (h: Harness, auth?: string) =>
  h.call("GET", "/metrics", { headers: auth === undefined ? {} : { authorization: auth } });

/** `name{labels} value` samples of an exposition, comments left out. */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const out = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/**
 * Scrapes until `ready(samples)` (Elysia records a request after its answer has left, a moment
 * later): at most 200 scrapes, 10 ms apart.
 */
async function scrapeUntil(h: Harness, ready: (all: ReturnType<typeof samples>) => boolean) {
  let all = samples((await scrape(h, `Bearer ${TOKEN}`)).text);
  for (let i = 0; i < 200 && !ready(all); i++) {
    await Bun.sleep(10);
    all = samples((await scrape(h, `Bearer ${TOKEN}`)).text);
  }
  return all;
}

const value = (all: ReturnType<typeof samples>, name: string, labels: Record<string, string> = {}) =>
  all
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0);

describe("GET /metrics: access", () => {
  test("without COFRE_METRICS_TOKEN it does not exist (404)", async () => {
    const h = createHarness();
    const r = await scrape(h, `Bearer ${TOKEN}`);
    expect(r.status).toBe(404);
  });

  test("with the token set, a missing or wrong bearer token is 401 unauthorized", async () => {
    const h = createHarness({ metricsToken: TOKEN });
    for (const auth of [undefined, "Bearer wrong", TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, `bearer${TOKEN}`]) {
      const r = await scrape(h, auth);
      expect({ auth, status: r.status, code: r.body.error?.code }).toEqual({ auth, status: 401, code: "unauthorized" });
    }
  });

  test("the right token gets the Prometheus text format", async () => {
    const h = createHarness({ metricsToken: TOKEN });
    const r = await scrape(h, `Bearer ${TOKEN}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(r.text).toContain("# TYPE cofre_http_request_duration_seconds histogram");
    expect(r.text).toContain("# TYPE cofre_process_cpu_seconds_total counter");
  });
});

describe("GET /metrics: what a sandbox flow records", () => {
  test("requests by route pattern, transitions, webhook attempts and lag, PSP calls, jobs and transactions", async () => {
    const h = createHarness({ metricsToken: TOKEN, webhookAllowPrivate: true });
    deterministic(h);
    const a = await h.seedAccount();
    const rx = startReceiver();
    receivers.push(rx);
    await register(h, a.testKey, rx.url, ["charge.paid"]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await h.call("POST", "/v1/pix/charges", {
        key: a.testKey,
        headers: { "idempotency-key": `metrics-${i}-key` },
        body: { amount: 1000 + i },
      });
      expect(c.status).toBe(201);
      ids.push(c.body.id);
      expect((await h.call("GET", `/v1/charges/${c.body.id}`, { key: a.testKey })).status).toBe(200);
    }
    expect((await h.call("POST", `/v1/test_helpers/charges/${ids[0]}/pay`, { key: a.testKey, body: {} })).status).toBe(
      200,
    );
    expect((await h.call("GET", `/v1/charges/ch_${"0".repeat(32)}`, { key: a.testKey })).status).toBe(404);
    expect((await h.call("GET", `/nowhere/${ids[1]}`)).status).toBe(404);
    await h.deps.jobs.drain();
    expect(rx.requests.length).toBe(1);

    const http = "cofre_http_request_duration_seconds_count";
    const all = await scrapeUntil(h, (x) => value(x, http, { route: "unmatched" }) === 1);
    expect(value(all, http, { method: "POST", route: "/v1/pix/charges", status: "201" })).toBe(3);
    expect(value(all, http, { method: "GET", route: "/v1/charges/:id", status: "200" })).toBe(3);
    expect(value(all, http, { method: "GET", route: "/v1/charges/:id", status: "404" })).toBe(1);
    expect(value(all, http, { method: "GET", route: "unmatched", status: "404" })).toBe(1);
    expect(value(all, "cofre_charge_transitions_total", { transition: "created" })).toBe(3);
    expect(value(all, "cofre_charge_transitions_total", { transition: "paid" })).toBe(1);
    expect(value(all, "cofre_webhook_attempt_duration_seconds_count", { outcome: "delivered" })).toBe(1);
    expect(value(all, "cofre_webhook_delivery_lag_seconds_count")).toBe(1);
    expect(
      value(all, "cofre_psp_request_duration_seconds_count", {
        provider: "sandbox",
        operation: "create",
        outcome: "ok",
      }),
    ).toBe(3);
    expect(value(all, "cofre_job_start_lag_seconds_count", { kind: "webhook.deliver" })).toBe(1);
    expect(value(all, "cofre_db_transaction_duration_seconds_count", { outcome: "commit" })).toBeGreaterThan(3);
    expect(value(all, "cofre_webhook_queue_depth")).toBe(0);
    expect(
      value(all, "cofre_jobs_queued", { kind: "charge.expiry_sweep" }) + value(all, "cofre_jobs_queued"),
    ).toBeGreaterThan(0);
    expect(all.some((s) => s.name === "cofre_process_resident_memory_bytes" && s.value > 0)).toBe(true);
  });

  test("no label value is an id: charge, event, delivery, request or raw 32-hex ids never appear", async () => {
    const h = createHarness({ metricsToken: TOKEN });
    const a = await h.seedAccount();
    for (let i = 0; i < 5; i++) {
      const c = await h.call("POST", "/v1/pix/charges", {
        key: a.testKey,
        headers: { "idempotency-key": `labels-${i}-key` },
        body: { amount: 500 },
      });
      await h.call("GET", `/v1/charges/${c.body.id}`, { key: a.testKey });
      await h.call("GET", `/v1/charges/${c.body.id}/nothing`, { key: a.testKey });
      await h.call("GET", `/v1/events/evt_${c.body.id.slice(3)}`, { key: a.testKey });
    }
    const all = await scrapeUntil(
      h,
      (x) => value(x, "cofre_http_request_duration_seconds_count", { route: "/v1/events/:id" }) === 5,
    );
    const values = new Set(all.flatMap((s) => Object.values(s.labels)));
    for (const v of values)
      expect({ v, id: /[0-9a-f]{24,}|(^|[^a-z])(ch|evt|wd|acct|ak|re|po|req|job)_[0-9a-zA-Z]{8,}/.test(v) }).toEqual({
        v,
        id: false,
      });
    const routes = new Set(
      all.filter((s) => s.name === "cofre_http_request_duration_seconds_count").map((s) => s.labels.route),
    );
    routes.delete("/docs/json"); // the harness reads the OpenAPI document once per process
    routes.delete("/metrics"); // there once an earlier scrape was recorded
    expect([...routes].sort()).toEqual(["/v1/charges/:id", "/v1/events/:id", "/v1/pix/charges", "unmatched"]);
  });
});
