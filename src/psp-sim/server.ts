/**
 * psp-sim server: one Bun.serve listener with mutual TLS required at the handshake
 * (`requestCert` + `rejectUnauthorized` against the simulator CA: no client certificate, or one
 * from another CA, and the TLS handshake fails). Routes: `POST /oauth/token`; the API Pix v2
 * under `/api/v2` (`/cob/{txid}`, `/pix/{e2eid}`, `/pix`, `/pix/{e2eid}/devolucao/{id}`,
 * `/webhook/{chave}`, `/webhook`) with bearer tokens and scopes, the same again under `/v2`
 * with Efí's own routes (efi.ts: `PUT /v3/gn/pix/{idEnvio}`, `GET /v2/gn/pix/enviados/...`,
 * `GET /v2/gn/saldo`; efi-med.ts: `GET /v2/gn/pix/enviados`, `GET /v2/gn/infracoes`,
 * `POST /v2/gn/infracoes/{id}/defesa`), so an `efi` connection's `api_url` is the origin; control routes under
 * `/_sim` (control.ts). Faults (faults.ts) apply to token and API calls; every token/API exchange and
 * callback goes to the exchange log when one is set.
 */
import type { Server } from "bun";
import { type Clock, SystemClock } from "../lib/clock";
import { createLogger, type Logger } from "../lib/logger";
import { Callbacks } from "./callbacks";
import type { SimPki } from "./certs";
import { getCob, patchCob, putCob } from "./cob";
import { CONTROL_ROUTES } from "./control";
import { listInfracoes, listSends, postDefesa } from "./efi-med";
import type { ApiCtx, Reply, SimEnv } from "./core";
import { getDevolucao, putDevolucao, finishDevolucao } from "./devolucao";
import { ExchangeLog, loggedBody, loggedHeaders } from "./exchange-log";
import { FAULT_STATUSES, Faults, type ErrorRule } from "./faults";
import { rfc3339 } from "./format";
import { authenticate, type Scope, tokenEndpoint } from "./oauth";
import { getPix, listPix } from "./pix";
import { PixProblem, problem } from "./problems";
import { API_PREFIX, hostPort, loadSimDir, TOKEN_PATH } from "./setup";
import { SimStore } from "./store";
import { deleteWebhook, getWebhook, listWebhooks, putWebhook } from "./webhooks";
import {
  DEFAULT_INITIAL_BALANCE,
  EfiError,
  finishByRule,
  getBalance,
  getSendByE2e,
  getSendById,
  putSend,
  type SendResults,
} from "./efi";

export interface PspSimOptions {
  /** An initialised folder (`psp-sim init`): certificates, config.json, psp-sim.db. */
  dir: string;
  /** Listening port; default config.json's; 0 = ephemeral. */
  port?: number;
  /** Listening address; default config.json's host. */
  hostname?: string;
  /** Source of "now" (tests share Cofre's ManualClock); default the wall clock. */
  clock?: Clock;
  /** JSONL exchange log file. */
  exchangeLog?: string;
  /** Settle new devoluções as DEVOLVIDO right away. */
  autoSettle?: boolean;
  /** Extra PEM roots trusted for callbacks. */
  callbackCa?: string[];
  /** Lifetime of access tokens, seconds (default 3600). */
  tokenTtlSeconds?: number;
  /** How Efí sends end (efi.ts): `bands` (default), `settle`, `manual`. */
  sendResults?: SendResults;
  /** A client's balance at the PSP until set by `/_sim/balance`, centavos (default R$ 1,000,000.00). */
  initialBalance?: number;
  logger?: Logger;
}

export interface PspSim {
  port: number;
  /** `https://host:port`. */
  origin: string;
  /** `api_url` of a connection (`origin` + `/api/v2`). */
  apiUrl: string;
  /** `token_url` of a connection. */
  tokenUrl: string;
  pki: SimPki;
  env: SimEnv;
  stop(): Promise<void>;
}

interface ApiRoute {
  method: string;
  /** OpenAPI path template, e.g. `/cob/{txid}`. */
  route: string;
  scope: Scope;
  handler: (ctx: ApiCtx) => Reply | Promise<Reply>;
}

const API_ROUTES: ApiRoute[] = [
  { method: "PUT", route: "/cob/{txid}", scope: "cob.write", handler: putCob },
  { method: "PATCH", route: "/cob/{txid}", scope: "cob.write", handler: patchCob },
  { method: "GET", route: "/cob/{txid}", scope: "cob.read", handler: getCob },
  { method: "GET", route: "/pix/{e2eid}", scope: "pix.read", handler: getPix },
  { method: "GET", route: "/pix", scope: "pix.read", handler: listPix },
  { method: "PUT", route: "/pix/{e2eid}/devolucao/{id}", scope: "pix.write", handler: putDevolucao },
  { method: "GET", route: "/pix/{e2eid}/devolucao/{id}", scope: "pix.read", handler: getDevolucao },
  { method: "PUT", route: "/webhook/{chave}", scope: "webhook.write", handler: putWebhook },
  { method: "GET", route: "/webhook/{chave}", scope: "webhook.read", handler: getWebhook },
  { method: "DELETE", route: "/webhook/{chave}", scope: "webhook.write", handler: deleteWebhook },
  { method: "GET", route: "/webhook", scope: "webhook.read", handler: listWebhooks },
];

/** Efí's own routes (efi.ts), at their full paths below the origin. */
const EFI_ROUTES: ApiRoute[] = [
  { method: "PUT", route: "/v3/gn/pix/{idEnvio}", scope: "pix.send", handler: putSend },
  { method: "GET", route: "/v2/gn/pix/enviados/id-envio/{idEnvio}", scope: "gn.pix.send.read", handler: getSendById },
  { method: "GET", route: "/v2/gn/pix/enviados/{e2eId}", scope: "gn.pix.send.read", handler: getSendByE2e },
  { method: "GET", route: "/v2/gn/pix/enviados", scope: "gn.pix.send.read", handler: listSends },
  { method: "GET", route: "/v2/gn/infracoes", scope: "gn.infractions.read", handler: listInfracoes },
  { method: "POST", route: "/v2/gn/infracoes/{idInfracao}/defesa", scope: "gn.infractions.write", handler: postDefesa },
  { method: "GET", route: "/v2/gn/saldo", scope: "gn.balance.read", handler: getBalance },
];

/** Where an `efi` connection finds the standard's routes below the origin. */
export const EFI_STANDARD_PREFIX = "/v2";

function respond(reply: Reply): Response {
  const problemish =
    reply.status >= 400 &&
    typeof reply.body === "object" &&
    reply.body !== null &&
    "status" in reply.body &&
    "title" in reply.body;
  const headers = new Headers(reply.headers);
  if (reply.body === undefined) return new Response(null, { status: reply.status, headers });
  headers.set("content-type", problemish ? "application/problem+json" : "application/json; charset=utf-8");
  return new Response(JSON.stringify(reply.body), { status: reply.status, headers });
}

function problemReply(p: PixProblem): Reply {
  return { status: p.status, body: p.body, ...(p.headers ? { headers: p.headers } : {}) };
}

function faultReply(rule: ErrorRule): Reply {
  const p = problem(FAULT_STATUSES[rule.status], "Falha injetada pelo simulador.");
  return { ...problemReply(p), headers: rule.status === 503 ? { "retry-after": "1" } : {} };
}

/** Starts the simulator on an initialised folder; resolves once listening. */
export async function startPspSim(opts: PspSimOptions): Promise<PspSim> {
  const loaded = loadSimDir(opts.dir);
  const logger = opts.logger ?? createLogger(process.env.PSP_SIM_LOG_LEVEL ?? "info").child({ component: "psp-sim" });
  const store = new SimStore(loaded.dbFile);
  const exchangeLog = opts.exchangeLog ? new ExchangeLog(opts.exchangeLog) : undefined;
  const faults = new Faults();
  const callbacks = new Callbacks({
    identity: loaded.pki.callback,
    ca: [loaded.pki.ca.cert, ...(opts.callbackCa ?? [])],
    exchangeLog,
    logger,
  });
  const inflight = new Set<Promise<unknown>>();
  const env: SimEnv = {
    store,
    clock: opts.clock ?? new SystemClock(),
    faults,
    callbacks,
    locationBase: "",
    tokenTtlSeconds: opts.tokenTtlSeconds ?? 3600,
    autoSettle: opts.autoSettle ?? false,
    sendResults: opts.sendResults ?? "bands",
    initialBalance: opts.initialBalance ?? DEFAULT_INITIAL_BALANCE,
    connection: {
      type: "bcb_pix_v2",
      api_url: "",
      token_url: "",
      certificate: loaded.pki.client.cert,
      private_key: loaded.pki.client.key,
      ca_certificates: loaded.pki.ca.cert,
    },
    background(task) {
      const p = Promise.resolve()
        .then(task)
        .catch((err) => logger.error({ err }, "psp-sim background task failed"))
        .finally(() => inflight.delete(p));
      inflight.add(p);
    },
  };
  callbacks.bind(env);

  const record = (
    kind: "api" | "token",
    route: string,
    req: Request,
    path: string,
    raw: string,
    reply: Reply,
    res: Response,
    started: number,
  ) =>
    exchangeLog?.record({
      at: rfc3339(env.clock.nowMs()),
      kind,
      route,
      request: { method: req.method, url: req.url, path, headers: loggedHeaders(req.headers), body: loggedBody(raw) },
      response: {
        status: reply.status,
        headers: loggedHeaders(res.headers),
        body: reply.body === undefined ? null : loggedBody(JSON.stringify(reply.body)),
      },
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    });

  /** Faults, then `run`, with the after-fault and the exchange log; `prefix` is left out of the faults' key. */
  async function guarded(
    kind: "api" | "token",
    route: string,
    req: Request,
    run: (url: URL, raw: string) => Reply | Promise<Reply>,
    prefix = "",
  ): Promise<Response> {
    const started = performance.now();
    const url = new URL(req.url);
    const raw = req.method === "GET" || req.method === "DELETE" ? "" : await req.text();
    const path = prefix && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
    const key = `${req.method} ${path}`;
    const delay = faults.takeLatency(key);
    if (delay) await Bun.sleep(delay);
    let reply: Reply;
    const before = faults.takeError(key, false);
    if (before) reply = faultReply(before);
    else {
      const after = faults.takeError(key, true);
      try {
        reply = await run(url, raw);
      } catch (err) {
        if (err instanceof PixProblem) reply = problemReply(err);
        else if (err instanceof EfiError) reply = err.reply();
        else {
          logger.error({ err }, "psp-sim handler failed");
          reply = problemReply(problem("ErroInternoDoServidor", "Condição inesperada ao processar requisição."));
        }
      }
      const late = faults.takeLatency(key, true);
      if (late) await Bun.sleep(late);
      if (after) reply = faultReply(after);
    }
    const res = respond(reply);
    record(kind, route, req, path, raw, reply, res, started);
    return res;
  }

  type Handler = (req: Request & { params: Record<string, string> }) => Promise<Response>;
  const routes: Record<string, Record<string, Handler>> = {};
  const add = (path: string, method: string, h: Handler) => ((routes[path] ??= {})[method] = h);
  add(TOKEN_PATH, "POST", (req) =>
    guarded("token", TOKEN_PATH, req, (_url, raw) =>
      tokenEndpoint(env, req.headers.get("authorization"), req.headers.get("content-type") ?? "", raw),
    ),
  );
  const api = (prefix: string, r: ApiRoute, strip: string) =>
    add(prefix + r.route.replace(/\{(\w+)\}/g, ":$1"), r.method, (req) =>
      guarded(
        "api",
        r.route,
        req,
        (url, rawBody) => {
          const client = authenticate(env, req.headers.get("authorization"), r.scope);
          return r.handler({ env, client, params: req.params, query: url.searchParams, rawBody });
        },
        strip,
      ),
    );
  for (const r of API_ROUTES) {
    api(API_PREFIX, r, API_PREFIX);
    api(EFI_STANDARD_PREFIX, r, EFI_STANDARD_PREFIX);
  }
  for (const r of EFI_ROUTES) api("", r, "");
  for (const c of CONTROL_ROUTES)
    add(c.path, c.method, async (req) => {
      const url = new URL(req.url);
      const rawBody = req.method === "GET" ? "" : await req.text();
      try {
        return respond(await c.handler({ env, params: req.params, query: url.searchParams, rawBody }));
      } catch (err) {
        if (err instanceof PixProblem) return respond(problemReply(err));
        logger.error({ err }, "psp-sim control route failed");
        return respond(problemReply(problem("ErroInternoDoServidor", String(err))));
      }
    });

  const hostname = opts.hostname ?? loaded.config.host;
  const server: Server<undefined> = Bun.serve({
    port: opts.port ?? loaded.config.port,
    hostname,
    tls: {
      cert: loaded.pki.server.cert,
      key: loaded.pki.server.key,
      ca: loaded.pki.ca.cert,
      requestCert: true,
      rejectUnauthorized: true,
    },
    routes: routes as never,
    fetch: () => respond(problemReply(problem("NaoEncontrado", "Rota inexistente neste simulador."))),
    error: (err) => {
      logger.error({ err }, "psp-sim request failed");
      return respond(problemReply(problem("ErroInternoDoServidor", "Condição inesperada ao processar requisição.")));
    },
  });
  const port = server.port!;
  env.locationBase = hostPort(hostname, port);
  const origin = `https://${env.locationBase}`;
  env.connection.api_url = origin + API_PREFIX;
  env.connection.token_url = origin + TOKEN_PATH;
  env.background(() => callbacks.resendPending());
  for (const s of store.pendingSends()) finishByRule(env, s);
  if (env.autoSettle)
    for (const d of store.pendingDevolucoes()) {
      const pix = store.pixByE2e(d.e2eid);
      if (pix) env.background(() => finishDevolucao(env, pix, d.id, "DEVOLVIDO", null));
    }
  logger.info(
    {
      port,
      host: hostname,
      api_url: origin + API_PREFIX,
      token_url: origin + TOKEN_PATH,
      exchange_log: opts.exchangeLog ?? null,
    },
    `psp-sim listening on port ${port}`,
  );

  let stopping: Promise<void> | null = null;
  return {
    port,
    origin,
    apiUrl: origin + API_PREFIX,
    tokenUrl: origin + TOKEN_PATH,
    pki: loaded.pki,
    env,
    stop: () =>
      (stopping ??= (async () => {
        await server.stop(true);
        while (inflight.size) await Promise.allSettled([...inflight]);
        store.close();
      })()),
  };
}
