/**
 * Isolation matrix: account A creates one resource of every kind in test mode; then every route
 * with an id parameter (enumerated from `app.routes`) is called with A's ids by account B (test
 * and live key, or B's dashboard token) and by A's own live key. Each call must answer 404
 * `not_found` (403 `test_mode_only` for a sandbox helper called with a live key; 401 for an
 * apikey sent to a dashboard-token route) and change nothing: the rows of every table (hashed,
 * except the request log) and A's reads stay the same. List routes show none of A's ids to the others,
 * and A's live-mode webhook endpoint (live charges need a live provider, so endpoints are the
 * live resource the sandbox can create) is invisible to A's test key and to B.
 *
 * Not in the matrix: public capability URLs (checkout pages, QR/boleto files, Pix locations,
 * signed upload links; no credential, the raw id is the secret) and operator routes (one
 * platform-wide token, no account). Both are listed when the file runs.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import {
  countDiff,
  fillPath,
  isEnvelope,
  listRoutes,
  pathParams,
  probeAuth,
  tableDigests,
  type Credentials,
} from "../fuzz/surface";
import { createResources, kindOf, validBody, type Resources } from "./resources";

const OPERATOR_TOKEN = "op_isolation_token_0123456789";

let h: Harness;
let A: SeededAccount & { bearer?: string };
let B: SeededAccount & { bearer?: string };
let res: Resources;

async function login(a: SeededAccount): Promise<string | undefined> {
  const r = await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password } });
  return r.status === 200 ? r.body.access_token : undefined;
}

beforeAll(async () => {
  h = createHarness({ testClock: true, operatorToken: OPERATOR_TOKEN, rateLimitPerMinute: 0 });
  A = await h.seedAccount({ settings: { settlementDelaySeconds: 0 } });
  B = await h.seedAccount({ settings: { settlementDelaySeconds: 0 } });
  A.bearer = await login(A);
  B.bearer = await login(B);
  res = await createResources(h, A, A.bearer);
  await h.deps.jobs.drain();
  console.log(`isolation: created ${Object.keys(res.ids).join(", ")}; missing: ${res.missing.join("; ") || "none"}`);
});

/** A's reads, as `path -> status + body` (signed links, which embed an expiry signature, blanked). */
async function snapshotReads(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const r of res.reads) {
    const got = await h.call("GET", r.path, r.bearer ? { bearer: A.bearer } : { key: A.testKey });
    out[r.path] = `${got.status} ${got.text.replace(/"view_url":"[^"]*"/g, '"view_url":""')}`;
  }
  return out;
}

describe("isolation matrix", () => {
  test("every resource kind of account A could be created in test mode", () => {
    expect(Object.keys(res.ids).sort()).toEqual(
      [
        "api_key",
        "charge",
        "event",
        "evidence",
        "med_case",
        "member",
        "payment",
        "payout",
        "payout_destination",
        "refund",
        "webhook_delivery",
        "webhook_endpoint",
      ].filter((k) => !res.missing.some((m) => m.startsWith(`${k}:`))),
    );
    expect(res.ids.charge).toBeDefined();
    // Every group has landed: a kind that can no longer be created is a regression, not a gap.
    expect(res.missing).toEqual([]);
  });

  // Runs before the cross-account calls below: B's own request log rightly lists the paths B
  // requested, which then contain A's ids.
  test("no list or read route without an id shows A's test-mode ids to B or to A's live key", async () => {
    const creds: Credentials = {
      testKey: A.testKey,
      liveKey: A.liveKey,
      bearer: A.bearer,
      operatorToken: OPERATOR_TOKEN,
    };
    const routes = listRoutes(h).filter(
      (r) => r.method === "GET" && pathParams(r.path).length === 0 && r.path.startsWith("/v1/"),
    );
    const secrets = Object.values(res.ids).map((id) => id!.replace(/^ch_/, ""));
    const leaks: string[] = [];
    let checked = 0;
    for (const route of routes) {
      const auth = await probeAuth(h, route, creds);
      if (auth !== "apikey" && auth !== "bearer") continue;
      const callers =
        auth === "bearer"
          ? [{ who: "B's token", opts: { bearer: B.bearer } }]
          : [
              { who: "B's test key", opts: { key: B.testKey } },
              { who: "B's live key", opts: { key: B.liveKey } },
              { who: "A's live key", opts: { key: A.liveKey } },
            ];
      for (const c of callers) {
        const r = await h.call("GET", route.path, c.opts);
        checked++;
        if (r.status >= 500) leaks.push(`GET ${route.path} as ${c.who}: ${r.status}`);
        // Payout destinations are account-wide (extensions.md: both modes): A's live key may see A's.
        const hidden = c.who === "A's live key" ? secrets.filter((s) => s !== res.ids.payout_destination) : secrets;
        for (const s of hidden) if (r.text.includes(s)) leaks.push(`GET ${route.path} as ${c.who} shows ${s}`);
      }
    }
    // Control: A's own test key does see its charge in the payments list, so the scan can find ids.
    const own = await h.call("GET", "/v1/payments?limit=100", { key: A.testKey });
    if (own.status === 200 && res.ids.payment) expect(own.text).toContain(res.ids.payment);
    expect(leaks).toEqual([]);
    expect(checked).toBeGreaterThan(5);
  });

  test("B's keys, B's token and A's live key get 404 (or 401/403) on every id route of A, and nothing changes", async () => {
    const creds: Credentials = {
      testKey: A.testKey,
      liveKey: A.liveKey,
      bearer: A.bearer,
      operatorToken: OPERATOR_TOKEN,
    };
    const routes = listRoutes(h).filter((r) => pathParams(r.path).length > 0);
    const readsBefore = await snapshotReads();
    const problems: string[] = [];
    const notInMatrix: string[] = [];
    const unmapped: string[] = [];
    const skippedForMissingKind: string[] = [];
    let calls = 0;
    for (const route of routes) {
      const label = `${route.method} ${route.path}`;
      if (route.path.startsWith("/v1/operator/")) {
        notInMatrix.push(`${label} (operator)`);
        continue;
      }
      const auth = await probeAuth(h, route, creds);
      if (auth === "none" || auth === "operator") {
        notInMatrix.push(`${label} (public capability URL)`);
        continue;
      }
      const params = pathParams(route.path);
      const kinds = params.map((p) => kindOf(route.path, p));
      if (kinds.some((k) => k === null)) {
        unmapped.push(label);
        continue;
      }
      if (kinds.some((k) => !res.ids[k!])) {
        skippedForMissingKind.push(label);
        continue;
      }
      const path = fillPath(route.path, (p) => res.ids[kindOf(route.path, p)!]!);
      const body = validBody(route.method, route.path, res.ids);
      const testHelper = route.path.startsWith("/v1/test_helpers/");
      const callers: { who: string; opts: { key?: string; bearer?: string }; expect: number[]; code: string }[] =
        auth === "bearer"
          ? [
              { who: "B's dashboard token", opts: { bearer: B.bearer }, expect: [404], code: "not_found" },
              {
                who: "A's test apikey on a token route",
                opts: { key: A.testKey },
                expect: [401],
                code: "unauthorized",
              },
            ]
          : [
              { who: "B's test key", opts: { key: B.testKey }, expect: [404], code: "not_found" },
              {
                who: "B's live key",
                opts: { key: B.liveKey },
                expect: testHelper ? [403] : [404],
                code: testHelper ? "test_mode_only" : "not_found",
              },
              {
                who: "A's live key",
                opts: { key: A.liveKey },
                expect: testHelper ? [403] : [404],
                code: testHelper ? "test_mode_only" : "not_found",
              },
            ];
      for (const c of callers) {
        const before = await tableDigests(h);
        const r = await h.call(route.method, path, { ...c.opts, ...(body !== undefined ? { body } : {}) });
        calls++;
        const diff = countDiff(before, await tableDigests(h));
        const where = `${route.method} ${path} as ${c.who}`;
        if (!c.expect.includes(r.status) || !isEnvelope(r.body) || r.body.error.code !== c.code)
          problems.push(`${where}: expected ${c.expect.join("/")} ${c.code}, got ${r.status} ${r.text.slice(0, 200)}`);
        if (diff.length) problems.push(`${where}: wrote ${diff.join(", ")}`);
      }
    }
    await h.deps.jobs.drain();
    const readsAfter = await snapshotReads();
    for (const k of Object.keys(readsBefore))
      if (readsBefore[k] !== readsAfter[k])
        problems.push(`A's ${k} changed:\n  before ${readsBefore[k]}\n  after  ${readsAfter[k]}`);
    console.log(
      `isolation: ${calls} cross-tenant calls; not in matrix: ${notInMatrix.join(", ")}; skipped (kind missing): ${skippedForMissingKind.join(", ") || "none"}`,
    );
    expect(unmapped).toEqual([]);
    expect(skippedForMissingKind).toEqual([]);
    expect(problems).toEqual([]);
    expect(calls).toBeGreaterThan(20);
  }, 30_000);

  test("A's live-mode webhook endpoint is invisible to A's test key and to B's keys on every endpoint route", async () => {
    const live = await h.call("POST", "/v1/webhooks/endpoints", {
      key: A.liveKey,
      body: { url: "https://hooks.example.com/live", events: ["charge.paid"] },
    });
    if (live.status === 404) return console.log("isolation: webhook endpoints not wired; live-mode check skipped");
    expect(live.status).toBe(201);
    const id: string = live.body.id;
    const before = await h.call("GET", "/v1/webhooks/endpoints", { key: A.liveKey });
    const routes = listRoutes(h).filter(
      (r) => pathParams(r.path).length === 1 && kindOf(r.path, pathParams(r.path)[0]!) === "webhook_endpoint",
    );
    expect(routes.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const route of routes) {
      const path = fillPath(route.path, () => id);
      const body = validBody(route.method, route.path, { webhook_endpoint: id });
      for (const [who, key] of [
        ["A's test key", A.testKey],
        ["B's test key", B.testKey],
        ["B's live key", B.liveKey],
      ] as const) {
        const snap = await tableDigests(h);
        const r = await h.call(route.method, path, { key, ...(body !== undefined ? { body } : {}) });
        const diff = countDiff(snap, await tableDigests(h));
        if (r.status !== 404 || r.body?.error?.code !== "not_found")
          problems.push(`${route.method} ${path} as ${who}: ${r.status} ${r.text.slice(0, 160)}`);
        if (diff.length) problems.push(`${route.method} ${path} as ${who}: wrote ${diff.join(", ")}`);
      }
    }
    for (const key of [A.testKey, B.testKey, B.liveKey]) {
      const list = await h.call("GET", "/v1/webhooks/endpoints", { key });
      if (list.text.includes(id)) problems.push(`GET /v1/webhooks/endpoints lists A's live endpoint to another key`);
    }
    expect(problems).toEqual([]);
    const after = await h.call("GET", "/v1/webhooks/endpoints", { key: A.liveKey });
    expect(after.text).toBe(before.text);
    expect(after.text).toContain(id);
  });
});
