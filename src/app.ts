/**
 * createApp(deps) -> Elysia: global hooks (request id, body limits, JSON-only bodies, the one
 * error envelope, request logging) and every route group. Tests call `app.handle(new Request(...))`.
 */
import { Elysia } from "elysia";
import type { Deps } from "./deps";
import { ApiError, envelope, type ErrorDetail } from "./http/errors";
import { DomainError } from "./domain/errors";
import { pathDecodes, pathOf, pickRequestId, requestFacts } from "./http/context";
import { docsPlugin } from "./http/docs";
import { routeGroups } from "./http/routes";
import { jsonTooDeep, MAX_JSON_DEPTH } from "./lib/json";
import { logApiRequest } from "./http/plugins/request-log";
import { auditDashboardRequest, type DashboardAction } from "./domain/audit/audit-log";
import { assertWellFormedStrings, BodyDeadlines, isJsonMediaType, readBodyBytes } from "./http/body";
import { MethodIndex } from "./http/methods";
import { accessLogger } from "./lib/logger";
import { op } from "./http/openapi";
import { Type, View } from "./lib/view-schema";
import { MAX_CALLBACK_BODY_BYTES } from "./domain/pix-provider/callbacks";
import { admitBeforeBody } from "./http/routes/provider-webhooks";
import { keepRawBody } from "./http/routes/provider-webhooks/stripe";

const HealthSchema = View("Health", { status: Type.Literal("ok") });
const ReadySchema = View("Ready", { status: Type.Literal("ready") });

/** Paths whose bodies are not JSON (evidence uploads are raw bytes up to 10 MB). */
const RAW_BODY_PREFIXES = ["/v1/uploads/"];
const RAW_BODY_MAX = 10 * 1024 * 1024 + 1024;
const BUN_BODY_CAP = 1024 * 1024 * 1024;
const isRawBodyPath = (path: string) => RAW_BODY_PREFIXES.some((p) => path.startsWith(p));
/**
 * The URL and each header Cofre reads for authentication (apikey, Authorization, Cookie) are at
 * most this many bytes, else 431 `request_headers_too_large` in the envelope (issue 30 §4). Bun
 * answers a bare 431 itself only above its own header limit, raised to 256 KiB by the
 * `start`/`dev` scripts and the executable (`--max-http-header-size`, package.json).
 */
const MAX_HEADER_FIELD_BYTES = 8192;
const headerTooLarge = (h: Headers) =>
  (h.get("apikey")?.length ?? 0) > MAX_HEADER_FIELD_BYTES ||
  (h.get("authorization")?.length ?? 0) > MAX_HEADER_FIELD_BYTES ||
  (h.get("cookie")?.length ?? 0) > MAX_HEADER_FIELD_BYTES;
/** Provider callbacks are public: their bodies are capped far lower (issue 30 §1). */
const isCallbackPath = (path: string) => path.startsWith("/v1/provider-webhooks/");
const utf8 = new TextDecoder();

export function createApp(deps: Deps) {
  const { config, logger } = deps;
  // The access line, built directly (same JSON line as `logger.info(fields, "request")`).
  const accessLog = accessLogger(logger);
  const smallestLimit = Math.min(RAW_BODY_MAX, config.maxBodyBytes, MAX_CALLBACK_BODY_BYTES);
  const jsonLimit = (path: string) =>
    isCallbackPath(path) ? Math.min(MAX_CALLBACK_BODY_BYTES, config.maxBodyBytes) : config.maxBodyBytes;
  const deadlines = new BodyDeadlines(config.bodyTimeoutMs);
  // Built from the router's routes on the first unmatched request (every group is mounted by then).
  let methodIndex: MethodIndex | null = null;
  // Bun's own cap answers a bare 413 without our envelope, so it sits far above every limit we
  // enforce ourselves: a declared Content-Length is checked in onRequest, and bodies are read
  // through readBodyBytes, which stops at the limit.
  const app = new Elysia({ normalize: false, serve: { maxRequestBodySize: BUN_BODY_CAP } })
    .onRequest(({ request, set }) => {
      // An API request opens its request scope in the store (src/store/port.ts): the store may
      // serve the requests that arrive together in one scope, with cheaper reads and one
      // durability point for their writes (awaited in mapResponse below).
      if (request.url.includes("/v1/")) deps.store.openRequestScope();
      const facts = requestFacts(request);
      facts.at = deps.clock.nowMs();
      facts.requestId = pickRequestId(request.headers.get("x-request-id"));
      set.headers["x-request-id"] = facts.requestId;
      if (request.url.length > MAX_HEADER_FIELD_BYTES || headerTooLarge(request.headers))
        throw new ApiError(
          "request_headers_too_large",
          `The request's URL or headers are too large: the URL and each of the apikey, Authorization and Cookie headers may be at most ${MAX_HEADER_FIELD_BYTES} bytes.`,
        );
      if (request.url.includes("%") && !pathDecodes(request))
        throw new ApiError("invalid_request", "The URL path is not valid percent-encoded UTF-8.");
      const length = Number(request.headers.get("content-length") ?? 0);
      if (
        length > smallestLimit &&
        length > (isRawBodyPath(pathOf(request)) ? RAW_BODY_MAX : jsonLimit(pathOf(request)))
      )
        throw new ApiError("payload_too_large", "The request body is too large.");
    })
    .onParse({ as: "global" }, async ({ request }) => {
      // The whole body must arrive within the deadline (raw uploads, up to 10 MB, get ten times it).
      const started = requestFacts(request).startedAt;
      // Raw uploads: the bytes as an ArrayBuffer (what `parse: "arrayBuffer"` gives), read with a limit.
      if (isRawBodyPath(pathOf(request)))
        return (await readBodyBytes(request, RAW_BODY_MAX, deadlines, started + 10 * config.bodyTimeoutMs)).buffer;
      const path = pathOf(request);
      // A provider callback is admitted (connection, rate) before its body is read.
      if (isCallbackPath(path)) await admitBeforeBody(deps, request, path);
      const text = utf8.decode(
        await readBodyBytes(request, jsonLimit(path), deadlines, started + config.bodyTimeoutMs),
      );
      // A provider's signed callback (Stripe) is verified over its raw text.
      if (isCallbackPath(path)) keepRawBody(request, text);
      if (text.trim() === "") return {};
      // The header itself: Elysia's `contentType` has its parameters (charset) cut off.
      if (!isJsonMediaType(request.headers.get("content-type")))
        throw new ApiError("unsupported_media_type", "Request bodies must be JSON (Content-Type: application/json).");
      if (jsonTooDeep(text))
        throw new ApiError("invalid_request", `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new ApiError("invalid_json", "The request body is not valid JSON.");
      }
      assertWellFormedStrings(text, value);
      return value;
    })
    .onError({ as: "global" }, ({ code, error, request, set }) => {
      const facts = requestFacts(request);
      if (!facts.requestId) facts.requestId = pickRequestId(request.headers.get("x-request-id"));
      let err = toApiError(code, error);
      if (err.code === "not_found" && code === "NOT_FOUND") {
        // Rebuilt only when routes were mounted since (tests mount extra routes after createApp).
        if (methodIndex?.size !== app.routes.length) methodIndex = new MethodIndex(app.routes);
        err = wrongMethod(methodIndex, request) ?? err;
      }
      facts.status = err.status;
      if (err.status >= 500) logger.error({ err: error, request_id: facts.requestId }, "unhandled error");
      return errorResponse(err, facts.requestId, set.headers as Record<string, unknown>);
    })
    // One hook for both logs (each global hook costs every request a call).
    .onAfterResponse({ as: "global" }, ({ request, set, route }) => {
      const facts = requestFacts(request);
      const status = facts.status ?? (typeof set.status === "number" ? set.status : 200);
      const durationMs = performance.now() - facts.startedAt;
      accessLog({
        request_id: facts.requestId,
        method: request.method,
        route: route || pathOf(request),
        status,
        duration_ms: Math.round(durationMs * 100) / 100,
        key_fingerprint: facts.fingerprint,
      });
      logApiRequest(deps, request, status, durationMs);
      // Route PATTERNS only (never a raw path: ids would make unbounded label sets).
      if (deps.metrics.enabled) deps.metrics.request(request.method, route || "unmatched", status, durationMs);
    })
    // Durable before answering: no response leaves before every unit returned so far is durable
    // (`store.durable()`, src/store/port.ts). Synchronous and a no-op when all already are (an
    // async hook would make every route async); else the response becomes a promise of itself
    // that settles once they are, which Elysia's response mapping awaits. When making them
    // durable fails, the answer is 500 `internal_error` (safe to retry) instead.
    .mapResponse({ as: "global" }, ({ request, response, set }) => {
      // A state-changing dashboard-session request that succeeded lands in the audit log before its
      // answer leaves (and is durable before it does). Errors set facts.status.
      const audited = request.method !== "GET" ? auditDashboardWrite(deps, request, set.status) : null;
      const pending = audited ? audited.then(() => deps.store.durable()) : deps.store.durable();
      if (!pending) return;
      // Elysia maps a Promise response by awaiting it and mapping the value (its types only admit Response).
      return pending.then(
        () => response as Response,
        () => {
          const facts = requestFacts(request);
          facts.status = 500;
          const err = new ApiError("internal_error", "Something went wrong on our side; it is safe to retry.");
          return errorResponse(err, facts.requestId, set.headers as Record<string, unknown>);
        },
      );
    })
    .use(docsPlugin(deps))
    .get("/healthz", () => ({ status: "ok" as const }), {
      detail: op({
        tags: ["health"],
        summary: "Liveness",
        description: '200 `{status: "ok"}` while the process serves HTTP.',
        security: "none",
        ok: { 200: HealthSchema },
        errors: [],
      }),
    })
    .get(
      "/readyz",
      async () => {
        if (!(await deps.store.ready())) throw new ApiError("service_unavailable", "The database is not ready.");
        return { status: "ready" };
      },
      {
        detail: op({
          tags: ["health"],
          summary: "Readiness",
          description:
            '200 `{status: "ready"}` once migrations ran and the database answers; else 503 `service_unavailable`.',
          security: "none",
          ok: { 200: ReadySchema },
          errors: [503],
        }),
      },
    );
  for (const group of routeGroups(deps)) app.use(group);
  return app;
}

export type App = ReturnType<typeof createApp>;

/**
 * Audit entry of a successful state-changing request made with a dashboard session, in a unit of
 * its own (in the request's scope, made durable with its writes); null when there is none to write.
 */
function auditDashboardWrite(deps: Deps, request: Request, setStatus: unknown): Promise<void> | null {
  const facts = requestFacts(request);
  if (!facts.actorUserId || facts.status !== undefined || request.method === "HEAD" || request.method === "OPTIONS")
    return null;
  const status = typeof setStatus === "number" ? setStatus : 200;
  if (status >= 400) return null;
  const entry: DashboardAction = {
    accountId: facts.accountId!,
    actorUserId: facts.actorUserId,
    what: `${request.method} ${pathOf(request)}`,
    status,
    mode: facts.livemode === undefined ? null : facts.livemode ? "live" : "test",
    requestId: facts.requestId,
    at: facts.at ?? deps.clock.nowMs(),
  };
  return auditDashboardRequest(deps, entry);
}

/**
 * Renders `err` in the envelope with the request id header, the headers already set for the
 * response (`carried`, e.g. the rate-limit headers of an authenticated request) and any headers
 * the error carries (e.g. Retry-After).
 */
export function errorResponse(err: ApiError, requestId: string, carried: Record<string, unknown> = {}): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(carried)) {
    const lower = k.toLowerCase();
    if (v === undefined || v === null || lower === "content-type" || lower === "content-length") continue;
    headers.set(k, String(v));
  }
  for (const [k, v] of Object.entries(err.extra.headers ?? {})) headers.set(k, v);
  headers.set("content-type", "application/json");
  headers.set("x-request-id", requestId);
  return new Response(JSON.stringify(envelope(err, requestId)), { status: err.status, headers });
}

/**
 * 405 `method_not_allowed` with `Allow` when the unmatched request's path exists with other
 * methods (extensions.md "Wrong method"); null for an unknown path (404 stays).
 */
function wrongMethod(index: MethodIndex, request: Request): ApiError | null {
  const allowed = index.allowed(pathOf(request));
  if (allowed.length === 0) return null;
  return new ApiError(
    "method_not_allowed",
    `${request.method} is not allowed on this path; allowed: ${allowed.join(", ")}.`,
    {
      headers: { Allow: allowed.join(", ") },
    },
  );
}

/** Maps anything thrown (DomainError/ApiError, Elysia's validation/parse/404 errors, bugs) to an ApiError. */
function toApiError(code: unknown, error: unknown): ApiError {
  // A domain failure gets its status from the one table (ApiError.from); an ApiError is returned as is.
  if (error instanceof DomainError) return ApiError.from(error);
  // Elysia wraps what a parse hook throws (our 413/415/invalid_json) in a ParseError.
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof DomainError) return ApiError.from(cause);
  switch (code) {
    case "NOT_FOUND":
      return new ApiError("not_found", "No route matches this method and path.");
    case "PARSE":
      return new ApiError("invalid_json", "The request body could not be parsed.");
    case "VALIDATION":
      // A handler answering outside its own response schema is our bug, not the caller's.
      if ((error as { type?: string }).type === "response")
        return new ApiError("internal_error", "Something went wrong on our side; it is safe to retry.");
      return validationError(error);
    case "INVALID_COOKIE_SIGNATURE":
      return new ApiError("invalid_request", "Invalid request.");
  }
  // Decoding input that is not valid percent-encoding or Unicode (onRequest and onParse refuse it first).
  if (error instanceof URIError)
    return new ApiError("invalid_request", "The request contains text that is not valid Unicode.");
  const status = (error as { status?: number })?.status;
  if (status === 413) return new ApiError("payload_too_large", "The request body is too large.");
  return new ApiError("internal_error", "Something went wrong on our side; it is safe to retry.");
}

const AMOUNT_PARAMS = new Set(["amount"]);

/** What a string or fractional amount is told (interface.md: amounts are integers in the minor unit). */
function amountMessage(param: string): string {
  return `${param} must be an integer number of centavos (R$ 10,00 = 1000).`;
}

/** Elysia ValidationError -> 400 with `details[]`; never echoes the input value. */
function validationError(error: unknown): ApiError {
  const all =
    (error as { all?: { path?: string; message?: string; summary?: string; schema?: { error?: string } }[] }).all ?? [];
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const e of all) {
    const param = (e.path ?? "").replace(/^\//, "").replaceAll("/", ".") || "body";
    // TypeBox's own message ("Expected integer"), never Elysia's summary, which can quote the value.
    const custom = e.schema?.error;
    let message = typeof custom === "string" ? custom : (e.message ?? "Invalid value.");
    if (AMOUNT_PARAMS.has(param.split(".").pop()!) && message === "Expected integer") message = amountMessage(param);
    const k = `${param}|${message}`;
    if (seen.has(k)) continue;
    seen.add(k);
    details.push({ param, message: String(message).slice(0, 300) });
  }
  if (details.length === 0) details.push({ param: "body", message: "Invalid request." });
  const params = [...new Set(details.map((d) => d.param))];
  const code = params.some((p) => AMOUNT_PARAMS.has(p.split(".").pop()!)) ? "invalid_amount" : "invalid_request";
  const amountDetail = params.length === 1 ? details.find((d) => d.message === amountMessage(d.param)) : undefined;
  const message = amountDetail
    ? amountDetail.message
    : params.length === 1
      ? `Invalid value for ${params[0]}.`
      : "The request failed validation.";
  return new ApiError(code, message, { details, ...(params.length === 1 ? { param: params[0] } : {}) });
}
