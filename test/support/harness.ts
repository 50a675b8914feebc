/**
 * Test harness: an isolated Cofre per call (own database: in-memory SQLite, or under
 * COFRE_TEST_PG=1 a PostgreSQL database of its own, test/support/backend.ts; ManualClock, silent logs),
 * with seeded accounts and keys and a small `call` helper over `app.handle`. Every answer `call`
 * gets is checked against the served OpenAPI document (test/support/openapi-check.ts): an
 * undocumented status, content type or field fails the test that saw it.
 */
import type { Deps } from "../../src/deps";
import { createApp, type App } from "../../src/app";
import { ManualClock } from "../../src/lib/clock";
import type { Config } from "../../src/config";
import type { Logger } from "../../src/lib/logger";
import type { accounts } from "../../db/schema";
import { newId, rawId } from "../../src/lib/ids";
import { randomBase64Url, randomHex, sha256Hex } from "../../src/lib/crypto";
import { EVENT_CATALOG } from "../../src/domain/events/catalog";
import { configureWebhookRuntime, webhookRuntime } from "../../src/domain/webhooks/runtime";
import { OPENAPI_PATH } from "../../src/http/docs";
import { checkerFor, type DocChecker, type OpenApiDoc } from "./openapi-check";
import { testDeps } from "./backend";

export interface Harness {
  deps: Deps;
  app: App;
  clock: ManualClock;
  /** Sends a request through the app; `body` objects are JSON-encoded. */
  call: (method: string, path: string, opts?: CallOptions) => Promise<TestResponse>;
  /** Creates an account with an OWNER user and one test and one live key. */
  seedAccount: (opts?: SeedOptions) => Promise<SeededAccount>;
  /** Default of `SeedOptions.subscribeAllEvents` for this harness (false). */
  subscribeAllEvents: boolean;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as the `apikey` header. */
  key?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  bearer?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the body is JSON, else the text. */
  body: any;
  text: string;
}

export interface SeedOptions {
  name?: string;
  email?: string;
  password?: string;
  settings?: Partial<typeof accounts.$inferInsert>;
  /**
   * Registers an ACTIVE endpoint (both modes) subscribed to every catalog event, whose deliveries
   * succeed in memory. Legacy and MED events with no subscriber are not stored (canonical ones
   * always are: src/domain/events/emit.ts), so tests that read the outbox (`events` rows) seed with this.
   */
  subscribeAllEvents?: boolean;
}

/** URL of the catch-all endpoint of `subscribeAllEvents`; its deliveries never leave the process. */
export const OUTBOX_SINK_URL = "https://outbox-sink.example.com/hook";

export interface SeededAccount {
  accountId: string;
  userId: string;
  email: string;
  password: string;
  testKey: string;
  liveKey: string;
}

/** `logger`: optional (e.g. `createLogger("info", {write})` to capture log lines); default silent. */
export function createHarness(
  config: Partial<Config> = {},
  start = "2026-11-20T12:00:00.000Z",
  logger?: Logger,
): Harness {
  const clock = new ManualClock(start);
  const deps = testDeps({
    dataDir: config.dataDir ?? ":memory:", // a folder only for tests of file-backed pieces
    clock,
    logger,
    config: {
      logLevel: "silent",
      publicUrl: "http://localhost:3000",
      checkoutUrlBase: "http://localhost:3000/c",
      ...config,
    },
  });
  const app = createApp(deps);
  // The document depends only on these settings: harnesses that share them share one checker.
  const docKey = JSON.stringify([
    deps.config.checkoutUrlBase,
    !!deps.config.operatorToken,
    !!deps.config.testClock,
    !!deps.config.metricsToken,
  ]);
  const docChecker = () => {
    let c = checkers.get(docKey);
    if (!c) {
      c = app
        .handle(new Request(`http://localhost${OPENAPI_PATH}`))
        .then(async (res) => checkerFor((await res.json()) as OpenApiDoc));
      checkers.set(docKey, c);
    }
    return c;
  };

  const call: Harness["call"] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key !== undefined) headers.apikey = opts.key;
    if (opts.bearer !== undefined) headers.authorization = `Bearer ${opts.bearer}`;
    let body: BodyInit | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    const problems = (await docChecker()).problems({
      method,
      path,
      status: res.status,
      contentType: res.headers.get("content-type"),
      body: parsed,
      text,
    });
    if (problems.length) throw new Error(`The answer does not match the OpenAPI document:\n${problems.join("\n")}`);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  const seedAccount: Harness["seedAccount"] = async (opts = {}) => {
    const now = clock.nowMs();
    const accountId = newId("account");
    const userId = newId("user");
    const email = opts.email ?? `owner-${rawId().slice(-8)}@example.com`;
    const password = opts.password ?? "correct horse battery staple";
    const passwordHash = await Bun.password.hash(password, { algorithm: "argon2id", memoryCost: 4096, timeCost: 1 });
    const keys: Record<"test" | "live", string> = { test: "", live: "" };
    for (const mode of ["test", "live"] as const) keys[mode] = `ak_${mode}_${randomBase64Url(24)}`;
    await deps.store.tx(async (uow) => {
      await uow.accounts.insert({ id: accountId, name: opts.name ?? "Loja Teste", createdAt: now, ...opts.settings });
      await uow.accounts.insertUser({ id: userId, accountId, email, passwordHash, role: "OWNER", createdAt: now });
      for (const mode of ["test", "live"] as const)
        await uow.apiKeys.insert({
          id: newId("apiKey"),
          accountId,
          mode,
          fingerprint: sha256Hex(keys[mode]),
          prefix: keys[mode].slice(0, 12),
          label: "seed",
          createdAt: now,
        });
    });
    if (opts.subscribeAllEvents ?? h.subscribeAllEvents) await subscribeAll(deps, accountId, now);
    return { accountId, userId, email, password, testKey: keys.test, liveKey: keys.live };
  };

  const h: Harness = { deps, app, clock, call, seedAccount, subscribeAllEvents: false };
  return h;
}

/** The catch-all endpoint of `SeedOptions.subscribeAllEvents`, and a runtime that answers it 200 in memory. */
async function subscribeAll(deps: Deps, accountId: string, now: number): Promise<void> {
  for (const livemode of [false, true])
    await deps.store.tx((uow) =>
      uow.webhooks.insertEndpoint({
        id: newId("webhookEndpoint"),
        accountId,
        livemode,
        url: OUTBOX_SINK_URL,
        events: JSON.stringify(EVENT_CATALOG.map((e) => e.event)),
        status: "ACTIVE",
        secret: randomHex(32),
        createdAt: now,
        updatedAt: now,
      }),
    );
  if (sinks.has(deps)) return;
  sinks.add(deps);
  const { fetch: realFetch, lookup: realLookup } = webhookRuntime(deps);
  configureWebhookRuntime(deps, {
    fetch: (url, init) =>
      url.startsWith(OUTBOX_SINK_URL) ? Promise.resolve(new Response("ok")) : realFetch(url, init),
    lookup: (host) =>
      host === new URL(OUTBOX_SINK_URL).hostname
        ? Promise.resolve([{ address: "93.184.216.34", family: 4 }])
        : realLookup(host),
  });
}
/** Document checkers by the settings the served document depends on. */
const checkers = new Map<string, Promise<DocChecker>>();

/** Harnesses whose webhook runtime already answers the sink. */
const sinks = new WeakSet<Deps>();
