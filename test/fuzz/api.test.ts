/**
 * Fuzzes every JSON-bodied POST/PUT/PATCH route of the app (enumerated at runtime from
 * `app.routes`, so routes are covered as soon as they are mounted) with hostile JSON from
 * fast-check and raw texts, with valid credentials; path ids alternate between garbage and the ids
 * of real resources of the caller (test/isolation/resources.ts), so the handlers behind the
 * ownership check meet the hostile input too.
 *
 * For a body its route's schema rejects: a 4xx in our envelope, nothing written (the rows of
 * every table, hashed, except the request log: see LOG_TABLES), Object.prototype untouched,
 * /healthz alive (a key a strict schema does not list makes a body rejected: src/app.ts sets
 * `normalize: false`, so nothing is dropped). For a body the route accepts (no body declared, or
 * the schema accepts it exactly as sent, e.g. `{}` where every field is optional): never a 5xx, the envelope
 * on any error, writes only with a 2xx, Object.prototype untouched.
 *
 * Not fuzzed: raw-byte routes (/v1/uploads/*), and routes that take no body and no path
 * parameter (the body is ignored by design, so a hostile body is a valid request, e.g.
 * POST /v1/auth/logout); both lists are printed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { Value } from "@sinclair/typebox/value";
import { createHarness, type Harness } from "../support/harness";
import {
  bodyAt,
  garbageId,
  hostileBody,
  LONE_SURROGATES,
  PROTOTYPE_NAMES,
  rawBodies,
  schemaStringPaths,
  WRONG_MEDIA_TYPES,
} from "./hostile";
import { createResources, kindOf, type Resources } from "../isolation/resources";
import {
  authOptions,
  countDiff,
  fillPath,
  isEnvelope,
  listRoutes,
  pathParams,
  probeAuth,
  prototypePolluted,
  RAW_BODY_PREFIXES,
  tableDigests,
  type Credentials,
  type RouteInfo,
} from "./surface";

const OPERATOR_TOKEN = "op_fuzz_token_0123456789abcdef";
/** Generated bodies per route (plus ~20 raw texts); bounded so the file stays well under 20 s. */
const RUNS_PER_ROUTE = 12;

/**
 * Known bugs in other groups' code, excluded until fixed so CI stays green while the evidence is
 * kept: a failure is excused only when its route matches `route` ("*" = any) AND its input text
 * matches `input`. Each entry names the bug; the file prints the entries that excused nothing
 * (fixed: delete them).
 */
// Found and fixed while this file was written: 5000-level nesting inside a field -> 500 (Elysia's
// ValidationError overflowed the stack; src/app.ts now caps the depth), and a top-level JSON array
// accepted as {} by POST /v1/api-keys (201, a key issued). Shape of an entry:
// { route: "POST /v1/x" | "*", input: /body=\[/, bug: "what is wrong, where" }.
const ALLOWLIST: { route: string; input: RegExp; bug: string }[] = [];

interface Failure {
  route: string;
  input: string;
  status: number;
  problem: string;
  response: string;
}

let h: Harness;
let creds: Credentials;
/** Real resources of the fuzzing account: odd cases address them, so handlers past the 404 run too. */
let res: Resources;
const failures: Failure[] = [];
const fuzzed: string[] = [];
const skipped: string[] = [];
const timings: string[] = [];

beforeAll(async () => {
  h = createHarness({ testClock: true, operatorToken: OPERATOR_TOKEN, rateLimitPerMinute: 0 });
  const a = await h.seedAccount();
  creds = { testKey: a.testKey, liveKey: a.liveKey, operatorToken: OPERATOR_TOKEN };
  const login = await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password } });
  if (login.status === 200) creds.bearer = login.body.access_token;
  res = await createResources(h, a, creds.bearer);
});

afterAll(() => {
  console.log(`fuzz: ${fuzzed.length} routes fuzzed: ${fuzzed.join(", ")}\nskipped: ${skipped.join("; ") || "none"}`);
  if (process.env.FUZZ_TIMINGS) console.log(timings.join("\n"));
  if (failures.length)
    console.log(
      `fuzz failures (${failures.length}, allowlisted ones included):\n${JSON.stringify(failures.slice(0, 40), null, 1)}`,
    );
});

/**
 * True when the route would accept `value` as a body: the route declares no body (it ignores
 * what is sent), or the schema accepts it as sent. src/app.ts sets `normalize: false`, so Elysia
 * drops no unknown key: a body with a key the schema does not allow must be answered with a 4xx.
 */
function schemaAccepts(schema: unknown, value: unknown): boolean {
  if (!schema) return true;
  try {
    return Value.Check(schema as never, value);
  } catch {
    return false;
  }
}

function summarize(v: unknown): string {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 300 ? `${s.slice(0, 300)}... (${s.length} chars)` : s;
}

/** Sends one case and records every broken promise as a Failure. */
async function runCase(
  route: RouteInfo,
  kind: Awaited<ReturnType<typeof probeAuth>>,
  n: number,
  bodyText: string,
  parsed: unknown,
  contentType = "application/json",
) {
  const key = `${route.method} ${route.path}`;
  const garbage = fc.sample(garbageId, { numRuns: 1, seed: n * 7919 + route.path.length })[0]!;
  const real = (p: string) => {
    const k = kindOf(route.path, p);
    return k ? res.ids[k] : undefined;
  };
  const useReal = n % 2 === 1 && pathParams(route.path).every((p) => real(p));
  const path = fillPath(route.path, (p) => (useReal ? real(p)! : garbage));
  const accepted = contentType === "application/json" && parsed !== undefined && schemaAccepts(route.body, parsed);
  const headers: Record<string, string> = { "content-type": contentType };
  if (n % 2 === 0) headers["idempotency-key"] = `fuzz-key-${n}-${route.path.length}`;
  const before = await tableDigests(h);
  const r = await h.call(route.method, path, { body: bodyText, headers, ...authOptions(kind, creds, n % 5 === 4) });
  const after = await tableDigests(h);
  const input = `${route.method} ${path.slice(0, 120)} body=${summarize(bodyText)}`;
  const fail = (problem: string) =>
    failures.push({ route: key, input, status: r.status, problem, response: summarize(r.text) });
  const diff = countDiff(before, after);
  const polluted = prototypePolluted();
  if (polluted) fail(`prototype polluted: ${polluted}`);
  if (r.status >= 500) fail("5xx");
  if (r.status >= 300 && !isEnvelope(r.body)) fail("not our error envelope");
  if (!accepted && (r.status < 400 || r.status > 499)) fail("schema-invalid body not answered with a 4xx");
  if (diff.length && (r.status < 200 || r.status > 299)) fail(`rejected request wrote rows: ${diff.join(", ")}`);
  if (diff.length && !accepted) fail(`schema-invalid body wrote rows: ${diff.join(", ")}`);
}

describe("fuzzing the API surface", () => {
  test("every JSON POST/PUT/PATCH route answers hostile bodies with a 4xx envelope and writes nothing", async () => {
    const routes = listRoutes(h).filter((r) => ["POST", "PUT", "PATCH"].includes(r.method));
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (RAW_BODY_PREFIXES.some((p) => route.path.startsWith(p))) {
        skipped.push(`${key} (raw-byte body)`);
        continue;
      }
      if (!route.body && pathParams(route.path).length === 0) {
        skipped.push(`${key} (takes no body and no id: a hostile body is a valid call)`);
        continue;
      }
      const kind = await probeAuth(h, route, creds);
      const started = performance.now();
      let n = 0;
      for (const raw of rawBodies(route.body)) {
        let parsed: unknown;
        try {
          // The app decodes bodies with TextDecoder, which drops a leading BOM (RFC 8259 allows it).
          parsed = JSON.parse(raw.text.replace(/^\ufeff/, ""));
        } catch {}
        await runCase(route, kind, n++, raw.text, parsed, raw.contentType);
      }
      const seed = [...key].reduce((s, c) => (s * 31 + c.charCodeAt(0)) | 0, 7);
      for (const body of fc.sample(hostileBody(route.body), { numRuns: RUNS_PER_ROUTE, seed })) {
        await runCase(route, kind, n++, JSON.stringify(body) ?? "null", JSON.parse(JSON.stringify(body) ?? "null"));
      }
      const health = await h.call("GET", "/healthz");
      if (health.status !== 200)
        failures.push({
          route: key,
          input: "(after the route's cases)",
          status: health.status,
          problem: "healthz down",
          response: health.text,
        });
      fuzzed.push(`${key} [${kind}]`);
      timings.push(`${key} ${Math.round(performance.now() - started)}ms`);
    }
    const excuse = (f: Failure) =>
      ALLOWLIST.find((a) => (a.route === "*" || a.route === f.route) && a.input.test(f.input));
    const unused = ALLOWLIST.filter((a) => !failures.some((f) => excuse(f) === a));
    if (unused.length)
      console.log(
        `fuzz: allowlist entries that excused nothing (fixed? delete them): ${unused.map((a) => a.bug).join(" | ")}`,
      );
    const unexpected = failures.filter((f) => !excuse(f));
    const byRoute = [
      ...new Set(unexpected.map((f) => `${f.route}: ${f.problem} (status ${f.status}) input ${f.input}`)),
    ];
    expect(byRoute).toEqual([]);
  }, 60_000);

  test("every GET route under /v1 answers hostile query strings without a 5xx and writes nothing", async () => {
    const routes = listRoutes(h).filter((r) => r.method === "GET" && r.path.startsWith("/v1/"));
    const names = [
      "limit",
      "offset",
      "page",
      "starting_after",
      "status",
      "type",
      "days",
      "currency",
      "startDate",
      "endDate",
      "created_after",
      "created_before",
      "sortBy",
      "sortOrder",
      "eventType",
      "endpointId",
      "charge_id",
      "customer_id",
      "fingerprint",
    ];
    const query = fc
      .array(
        fc.tuple(
          fc.constantFrom(...names, "__proto__", "constructor[prototype][polluted]"),
          fc.oneof(
            fc.constantFrom(
              "-1",
              "0",
              "1e3",
              "1.5",
              "99999999999999999999",
              "__proto__",
              "NaN",
              "",
              "x".repeat(5000),
              "2026-13-45",
              "ch_nope",
              "asc;drop table transactions",
            ),
            fc.string({ maxLength: 20 }),
          ),
        ),
        { minLength: 1, maxLength: 4 },
      )
      .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"));
    const problems: string[] = [];
    for (const route of routes) {
      const kind = await probeAuth(h, route, creds);
      const seed = [...route.path].reduce((s, c) => (s * 31 + c.charCodeAt(0)) | 0, 11);
      for (const q of fc.sample(query, { numRuns: 12, seed })) {
        const path = `${fillPath(route.path, () => "qfuzz_nope")}?${q}`;
        const before = await tableDigests(h);
        const r = await h.call("GET", path, authOptions(kind, creds));
        const diff = countDiff(before, await tableDigests(h));
        const where = `GET ${path.slice(0, 200)}`;
        if (r.status >= 500) problems.push(`${where}: ${r.status} ${r.text.slice(0, 200)}`);
        if (r.status >= 400 && r.headers.get("content-type")?.includes("json") && !isEnvelope(r.body))
          problems.push(`${where}: not our envelope`);
        if (diff.length) problems.push(`${where}: wrote ${diff.join(", ")}`);
        const polluted = prototypePolluted();
        if (polluted) problems.push(`${where}: ${polluted}`);
      }
    }
    expect(problems).toEqual([]);
  }, 30_000);

  /** JSON-bodied write routes with the credential each takes (raw-byte routes left out). */
  async function bodyRoutes() {
    const out: { route: RouteInfo; kind: Awaited<ReturnType<typeof probeAuth>> }[] = [];
    for (const route of listRoutes(h).filter((r) => ["POST", "PUT", "PATCH"].includes(r.method))) {
      if (RAW_BODY_PREFIXES.some((p) => route.path.startsWith(p))) continue;
      out.push({ route, kind: await probeAuth(h, route, creds) });
    }
    return out;
  }

  /** Sends `body` (text) to `route` and returns the problems: a 5xx, not our envelope, a 2xx, or a write. */
  async function expectRefused(
    route: RouteInfo,
    kind: Awaited<ReturnType<typeof probeAuth>>,
    n: number,
    bodyText: string,
    contentType = "application/json",
  ) {
    const problems: string[] = [];
    const real = (p: string) => {
      const k = kindOf(route.path, p);
      return k ? res.ids[k] : undefined;
    };
    const path = fillPath(route.path, (p) => (n % 2 === 1 && real(p)) || "hostile_nope");
    const before = await tableDigests(h);
    const r = await h.call(route.method, path, {
      body: bodyText,
      headers: { "content-type": contentType, "idempotency-key": `hostile-${n}-${route.path.length}` },
      ...authOptions(kind, creds),
    });
    const diff = countDiff(before, await tableDigests(h));
    const where = `${route.method} ${path.slice(0, 100)} [${contentType}] ${summarize(bodyText)}`;
    if (r.status >= 500) problems.push(`${where}: ${r.status} ${r.text.slice(0, 200)}`);
    else if (r.status < 400) problems.push(`${where}: accepted with ${r.status}`);
    if (r.status >= 400 && !isEnvelope(r.body)) problems.push(`${where}: not our envelope`);
    if (diff.length) problems.push(`${where}: wrote ${diff.join(", ")}`);
    const polluted = prototypePolluted();
    if (polluted) problems.push(`${where}: ${polluted}`);
    return { problems, status: r.status, body: r.body };
  }

  test("a lone UTF-16 surrogate in any string field, however nested, is a 4xx that writes nothing", async () => {
    const problems: string[] = [];
    let n = 0;
    let named = 0;
    for (const { route, kind } of await bodyRoutes()) {
      for (const path of schemaStringPaths(route.body)) {
        const text = JSON.stringify(bodyAt(path, LONE_SURROGATES[n % LONE_SURROGATES.length]));
        const r = await expectRefused(route, kind, n++, text);
        problems.push(...r.problems);
        // Past authentication the body is refused by name (src/http/body.ts assertWellFormedStrings).
        if (r.status === 400 && r.body.error.code === "invalid_request" && r.body.error.message.includes("surrogate")) {
          named++;
          if (r.body.error.param !== path)
            problems.push(`${route.method} ${route.path}: surrogate in ${path} reported as ${r.body.error.param}`);
        }
      }
    }
    expect(named).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  }, 60_000);

  test("prototype member names as body values never cause a 5xx, and a refused body writes nothing", async () => {
    const problems: string[] = [];
    let n = 0;
    for (const { route, kind } of await bodyRoutes()) {
      for (const path of schemaStringPaths(route.body)) {
        for (const name of PROTOTYPE_NAMES) {
          const r = await h.call(
            route.method,
            fillPath(route.path, () => "proto_nope"),
            {
              body: bodyAt(path, name),
              headers: { "idempotency-key": `proto-body-${n++}` },
              ...authOptions(kind, creds),
            },
          );
          if (r.status >= 500)
            problems.push(`${route.method} ${route.path} ${path}=${name}: ${r.status} ${r.text.slice(0, 200)}`);
          if (r.status >= 400 && !isEnvelope(r.body))
            problems.push(`${route.method} ${route.path} ${path}=${name}: not our envelope`);
        }
      }
    }
    expect(prototypePolluted()).toBeNull();
    expect(problems).toEqual([]);
  }, 60_000);

  test("a JSON body under a look-alike media type is refused (415 past authentication) and writes nothing", async () => {
    const problems: string[] = [];
    let n = 0;
    let refused415 = 0;
    for (const { route, kind } of await bodyRoutes()) {
      const props = schemaStringPaths(route.body);
      const text = JSON.stringify(props.length ? bodyAt(props[0]!, "x") : { amount: 100 });
      for (const ct of WRONG_MEDIA_TYPES) {
        const r = await expectRefused(route, kind, n++, text, ct);
        if (r.status === 415) refused415++;
        problems.push(...r.problems.filter((p) => !(p.includes("accepted with") && !route.body)));
      }
    }
    expect(refused415).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  }, 60_000);

  test("prototype member names as query keys and values of every GET route never cause a 5xx", async () => {
    const routes = listRoutes(h).filter((r) => r.method === "GET" && r.path.startsWith("/v1/"));
    const names = [
      "sortBy",
      "sortOrder",
      "status",
      "type",
      "eventType",
      "endpointId",
      "limit",
      "page",
      "currency",
      "starting_after",
    ];
    const problems: string[] = [];
    for (const route of routes) {
      const kind = await probeAuth(h, route, creds);
      const before = await tableDigests(h);
      for (const proto of PROTOTYPE_NAMES) {
        for (const q of [
          ...names.map((k) => `${k}=${encodeURIComponent(proto)}`),
          `${encodeURIComponent(proto)}=1`,
          `${encodeURIComponent(proto)}=x&${encodeURIComponent(proto)}=y`,
        ]) {
          const path = `${fillPath(route.path, () => proto)}?${q}`;
          const r = await h.call("GET", path, authOptions(kind, creds));
          if (r.status >= 500) problems.push(`GET ${path}: ${r.status} ${r.text.slice(0, 200)}`);
          if (r.status >= 400 && r.headers.get("content-type")?.includes("json") && !isEnvelope(r.body))
            problems.push(`GET ${path}: not our envelope`);
        }
      }
      const diff = countDiff(before, await tableDigests(h));
      if (diff.length) problems.push(`GET ${route.path}: wrote ${diff.join(", ")}`);
    }
    expect(prototypePolluted()).toBeNull();
    expect(problems).toEqual([]);
  }, 60_000);

  test("the app still answers /healthz and Object.prototype is clean after the fuzz", async () => {
    const r = await h.call("GET", "/healthz");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ok" });
    expect(prototypePolluted()).toBeNull();
  });
});
