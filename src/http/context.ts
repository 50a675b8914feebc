/** Per-request facts shared between hooks (request id, timing, who called) without globals. */

export interface RequestFacts {
  requestId: string;
  /** performance.now() when the request arrived (durations). */
  startedAt: number;
  /** The clock's epoch ms when the request arrived (set by onRequest; the request log's time). */
  at?: number;
  /** SHA-256 fingerprint of the API key that authenticated the request, when one did. */
  fingerprint?: string;
  accountId?: string;
  /** The dashboard user of a cookie-session request (src/http/plugins/session-auth.ts). */
  actorUserId?: string;
  livemode?: boolean;
  /** Path template of the matched route, for logs. */
  route?: string;
  /** Status of an error response rendered by onError (the access log reads it). */
  status?: number;
}

const facts = new WeakMap<Request, RequestFacts>();

/** The facts of `request`, created on first use. */
export function requestFacts(request: Request): RequestFacts {
  let f = facts.get(request);
  if (!f) {
    f = { requestId: "", startedAt: performance.now() };
    facts.set(request, f);
  }
  return f;
}

const SANE_ID = /^[\x21-\x7e]{1,200}$/;

/** The request id to use: the caller's `X-Request-Id` when printable and <= 200 chars, else a new one. */
export function pickRequestId(sent: string | null): string {
  return sent && SANE_ID.test(sent) ? sent : `req_${Bun.randomUUIDv7().replaceAll("-", "")}`;
}

/**
 * True when the path of `request` percent-decodes to valid UTF-8 (what the router does to path
 * parameters: a bad `%ZZ` or `%ED%A0%80` reaches a handler as a null parameter otherwise).
 * Cheap for the usual path without `%`.
 */
export function pathDecodes(request: Request): boolean {
  const path = pathOf(request);
  if (!path.includes("%")) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The pathname of `request.url` without parsing a URL object (hot path: several hooks need it on
 * every request). Request URLs are already WHATWG-normalized (Bun's server and `new Request`
 * resolve dot segments and percent-encode), so this equals `new URL(request.url).pathname`.
 */
export function pathOf(request: Request): string {
  const url = request.url;
  const scheme = url.indexOf("://");
  const start = url.indexOf("/", scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return "/";
  let end = url.length;
  for (let i = start; i < end; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 /* ? */ || c === 35 /* # */) end = i;
  }
  return url.slice(start, end);
}
