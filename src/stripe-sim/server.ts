/**
 * stripe-sim server: one plain-HTTP Bun.serve listener (127.0.0.1 by default) serving the API
 * subset of ROUTES.md under `/v1` (Bearer `sk_test_...` of a registered account; form-encoded
 * bodies; `Idempotency-Key` replays; Stripe's error shape), the hosted pages (`/pay/...`,
 * `/boleto/...`, hosted.ts) and the control routes (`/_sim/...`, control.ts). Timed work runs on
 * the scheduler (refund settlement, disputes, webhook deliveries with retries); a sweep (sweep.ts)
 * expires sessions and fails boletos past `expires_at` every `sweepMs`.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Server } from "bun";
import { type Clock, SystemClock } from "../lib/clock";
import { createLogger, type Logger } from "../lib/logger";
import { createSession, expireSessionRoute, getSession, listSessions } from "./checkout";
import { sweepDeadlines } from "./sweep";
import { control } from "./control";
import { type ApiCtx, DEFAULT_SETTINGS, load, type Reply, type SimEnv, type SimSettings, saveSettings } from "./core";
import { getDispute, openDispute } from "./disputes";
import { createEndpoint, deleteEndpoint, getAccount, getEndpoint, listEndpoints } from "./endpoints";
import { StripeSimError, badKey, idempotencyMismatch, unrecognizedUrl } from "./errors";
import { getEvent, listEvents } from "./events-api";
import { Params, parseForm } from "./form";
import { get3dsPage, getPayPage, post3dsPage, postPayPage, voucher } from "./hosted";
import { simId } from "./ids";
import { SIM_API_VERSION } from "./event-objects";
import { cancelPaymentIntentRoute, createPaymentIntent, getPaymentIntent } from "./payment-intents";
import { createRefund, finishRefund, getRefund, listRefunds } from "./refunds";
import { Scheduler } from "./scheduler";
import { apiBase, ensureAccount, FILES, loadConfig } from "./setup";
import { StripeSimStore } from "./store";
import { attemptDelivery } from "./webhooks";
import { expand } from "./expand";

/** Stripe's default retry spacing, ms (live mode retries for up to three days). */
export const STRIPE_RETRY_SCHEDULE = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  24 * 3_600_000,
  24 * 3_600_000,
];

export interface StripeSimOptions {
  /** Folder of the simulator (config.json, stripe-sim.db); created when missing. */
  dir: string;
  /** Listening port; default config.json's (12111); 0 = ephemeral. */
  port?: number;
  /** Listening address; default config.json's (127.0.0.1). */
  hostname?: string;
  /** Source of "now" for object timestamps and expiry (tests share a ManualClock). */
  clock?: Clock;
  /** Delays between delivery retries, ms (default STRIPE_RETRY_SCHEDULE). */
  retrySchedule?: number[];
  /** Timeout of one delivery attempt, ms (default 10000). */
  deliveryTimeoutMs?: number;
  /** Settings to apply at start (refund and dispute delays). */
  settings?: Partial<Pick<SimSettings, "refund_delay_ms" | "dispute_delay_ms">>;
  /** Interval of the session-expiry sweep, ms (default 1000; 0 = never, tests call /_sim/sweep). */
  sweepMs?: number;
  logger?: Logger;
}

export interface StripeSim {
  port: number;
  /** `http://host:port` (the connection's `api_base`). */
  origin: string;
  /** The first account's secret key. */
  secretKey: string;
  /** The first account's id. */
  accountId: string;
  env: SimEnv;
  stop(): Promise<void>;
}

type Handler = (ctx: ApiCtx) => Reply;

const API: [string, string, Handler][] = [
  ["GET", "/v1/account", getAccount],
  ["POST", "/v1/webhook_endpoints", createEndpoint],
  ["GET", "/v1/webhook_endpoints", listEndpoints],
  ["GET", "/v1/webhook_endpoints/:id", getEndpoint],
  ["DELETE", "/v1/webhook_endpoints/:id", deleteEndpoint],
  ["POST", "/v1/checkout/sessions", createSession],
  ["GET", "/v1/checkout/sessions", listSessions],
  ["GET", "/v1/checkout/sessions/:id", getSession],
  ["POST", "/v1/checkout/sessions/:id/expire", expireSessionRoute],
  ["POST", "/v1/payment_intents", createPaymentIntent],
  ["GET", "/v1/payment_intents/:id", getPaymentIntent],
  ["POST", "/v1/payment_intents/:id/cancel", cancelPaymentIntentRoute],
  [
    "GET",
    "/v1/charges/:id",
    (ctx) => ({
      status: 200,
      body: expand(ctx.env, ctx.account.id, load(ctx.env, ctx.account.id, "charge", ctx.params.id!), ctx.form.expand()),
    }),
  ],
  [
    "GET",
    "/v1/balance_transactions/:id",
    (ctx) => ({ status: 200, body: load(ctx.env, ctx.account.id, "balance_transaction", ctx.params.id!) }),
  ],
  ["POST", "/v1/refunds", createRefund],
  ["GET", "/v1/refunds", listRefunds],
  ["GET", "/v1/refunds/:id", getRefund],
  ["GET", "/v1/disputes/:id", getDispute],
  ["GET", "/v1/events", listEvents],
  ["GET", "/v1/events/:id", getEvent],
];

function match(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split("/");
  const b = path.split("/");
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.startsWith(":")) {
      if (b[i] === "") return null;
      params[a[i]!.slice(1)] = decodeURIComponent(b[i]!);
    } else if (a[i] !== b[i]) return null;
  }
  return params;
}

function respond(reply: Reply, extra: Record<string, string> = {}): Response {
  const headers = new Headers({ ...reply.headers, ...extra });
  if (reply.text !== undefined) return new Response(reply.text as BodyInit, { status: reply.status, headers });
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(reply.body === undefined ? "" : JSON.stringify(reply.body, null, 2), {
    status: reply.status,
    headers,
  });
}

function errorReply(err: StripeSimError): Reply {
  return { status: err.status, body: err.toJSON() };
}

function bearer(req: Request): string | null {
  const h = req.headers.get("authorization");
  if (!h) return null;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  if (m) return m[1]!.trim();
  const basic = /^Basic\s+(.+)$/i.exec(h);
  if (basic) return Buffer.from(basic[1]!, "base64").toString("utf8").split(":")[0] ?? null;
  return null;
}

async function api(env: SimEnv, req: Request, url: URL, rawBody: string): Promise<Reply> {
  const method = req.method;
  let found: { handler: Handler; params: Record<string, string> } | null = null;
  for (const [m, pattern, handler] of API) {
    const params = m === method ? match(pattern, url.pathname) : null;
    if (params) {
      found = { handler, params };
      break;
    }
  }
  const key = bearer(req);
  const account = key ? env.store.accountByKey(key) : null;
  if (!account) throw badKey(key);
  // Stripe answers a known path with another method the same way as an unknown path.
  if (!found) throw unrecognizedUrl(method, url.pathname);
  const requestId = simId("req");
  const idem = method === "POST" ? req.headers.get("idempotency-key") : null;
  const formText = method === "POST" ? rawBody : url.search.slice(1);
  const run = (): Reply => {
    try {
      return found!.handler({
        env,
        account,
        params: found!.params,
        form: new Params(parseForm(formText)),
        requestId,
        idempotencyKey: idem,
      });
    } catch (err) {
      if (err instanceof StripeSimError) return errorReply(err);
      throw err;
    }
  };
  if (idem === null) return run();
  const fingerprint = createHash("sha256").update(`${method} ${url.pathname}\n${rawBody}`).digest("hex");
  const prior = env.store.idempotent(account.id, idem);
  if (prior) {
    if (prior.fingerprint !== fingerprint) throw idempotencyMismatch(idem);
    return {
      status: prior.status,
      body: JSON.parse(prior.body),
      headers: { "idempotent-replayed": "true", "original-request": "replayed" },
    };
  }
  const reply = run();
  const code = reply.status >= 400 ? (reply.body as { error?: { code?: string } }).error?.code : undefined;
  const validationError = reply.status === 400 && (code === undefined || code.startsWith("parameter_"));
  if (!validationError)
    env.store.saveIdempotent(
      account.id,
      idem,
      { fingerprint, status: reply.status, body: JSON.stringify(reply.body) },
      Date.now(),
    );
  return reply;
}

async function pages(env: SimEnv, req: Request, url: URL, rawBody: string): Promise<Reply | null> {
  const parts = url.pathname.split("/").filter(Boolean);
  if (parts[0] === "pay" && parts.length >= 2 && parts.length <= 3) {
    const id = decodeURIComponent(parts[1]!);
    const form = new Params(parseForm(req.method === "POST" ? rawBody : ""));
    if (parts.length === 2)
      return req.method === "POST" ? postPayPage(env, id, form) : req.method === "GET" ? getPayPage(env, id) : null;
    if (parts[2] === "3ds")
      return req.method === "POST" ? post3dsPage(env, id, form) : req.method === "GET" ? get3dsPage(env, id) : null;
    return null;
  }
  if (parts[0] === "boleto" && parts.length === 2 && req.method === "GET") {
    const name = decodeURIComponent(parts[1]!);
    const ret = url.searchParams.get("return");
    const safeReturn = ret !== null && /^https?:\/\//.test(ret) ? ret : null;
    return name.endsWith(".pdf") ? voucher(env, name.slice(0, -4), true, null) : voucher(env, name, false, safeReturn);
  }
  return null;
}

/** Starts the simulator on `dir` (created and given an account when new); resolves once listening. */
export async function startStripeSim(opts: StripeSimOptions): Promise<StripeSim> {
  const dir = resolve(opts.dir);
  mkdirSync(dir, { recursive: true });
  const config = loadConfig(dir);
  const store = new StripeSimStore(join(dir, FILES.db));
  const first = ensureAccount(store);
  const logger = opts.logger ?? createLogger("info");
  const scheduler = new Scheduler(store);
  const tasks = new Set<Promise<unknown>>();
  const env: SimEnv = {
    store,
    clock: opts.clock ?? new SystemClock(),
    scheduler,
    logger,
    origin: "",
    retrySchedule: opts.retrySchedule ?? STRIPE_RETRY_SCHEDULE,
    deliveryTimeoutMs: opts.deliveryTimeoutMs ?? 10_000,
    background(task) {
      const p = task().catch((err) => logger.error({ err }, "stripe-sim background task failed"));
      tasks.add(p);
      void p.finally(() => tasks.delete(p));
    },
  };
  if (store.setting("sim") === null) saveSettings(env, DEFAULT_SETTINGS);
  if (opts.settings) saveSettings(env, opts.settings);
  scheduler.handle("deliver", (ref) => attemptDelivery(env, Number(ref)));
  scheduler.handle("refund_settle", (ref) => void finishRefund(env, ref, { status: "succeeded" }));
  scheduler.handle("dispute_open", (ref) => void openDispute(env, ref));

  let server: Server<undefined>;
  try {
    server = Bun.serve({
      port: opts.port ?? config.port,
      hostname: opts.hostname ?? config.host,
      async fetch(req) {
        const url = new URL(req.url);
        const rawBody = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
        const idemKey = req.method === "POST" ? req.headers.get("idempotency-key") : null;
        const stripeHeaders: Record<string, string> = {
          "request-id": simId("req"),
          "stripe-version": req.headers.get("stripe-version") ?? SIM_API_VERSION,
          ...(idemKey ? { "idempotency-key": idemKey } : {}),
        };
        try {
          if (url.pathname.startsWith("/v1/")) return respond(await api(env, req, url, rawBody), stripeHeaders);
          if (url.pathname.startsWith("/_sim/"))
            return respond(await control(env, req.method, url.pathname, rawBody, url.searchParams));
          const page = await pages(env, req, url, rawBody);
          if (page) return respond(page);
          return respond(errorReply(unrecognizedUrl(req.method, url.pathname)));
        } catch (err) {
          if (err instanceof StripeSimError)
            return respond(errorReply(err), url.pathname.startsWith("/v1/") ? stripeHeaders : {});
          logger.error({ err }, "stripe-sim request failed");
          return respond({
            status: 500,
            body: { error: { type: "api_error", message: "An unknown error occurred in the simulator." } },
          });
        }
      },
    });
  } catch (err) {
    store.close();
    throw err;
  }
  const port = server.port!;
  env.origin = apiBase({ host: server.hostname ?? config.host, port });
  scheduler.resume();
  for (const d of store.pendingDeliveries())
    if (store.jobsFor("deliver", String(d.id)).length === 0) scheduler.schedule("deliver", String(d.id), 0);
  logger.info(
    { port, host: server.hostname ?? config.host, api_base: env.origin, account: first.id, dir },
    `stripe-sim listening on port ${port}`,
  );
  const sweepMs = opts.sweepMs ?? 1000;
  const sweep =
    sweepMs > 0
      ? setInterval(() => {
          try {
            sweepDeadlines(env);
            store.pruneIdempotent(Date.now() - 86_400_000);
          } catch (err) {
            logger.error({ err }, "stripe-sim sweep failed");
          }
        }, sweepMs)
      : null;
  let stopped: Promise<void> | null = null;
  return {
    port,
    origin: env.origin,
    secretKey: first.secret_key,
    accountId: first.id,
    env,
    stop() {
      stopped ??= (async () => {
        if (sweep) clearInterval(sweep);
        await server.stop(true);
        await scheduler.stop();
        await Promise.allSettled([...tasks]);
        store.close();
      })();
      return stopped;
    },
  };
}
