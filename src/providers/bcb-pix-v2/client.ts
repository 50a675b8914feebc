/**
 * HTTP client of one PSP connection speaking the BCB API Pix v2 (extensions.md "Live Pix over the
 * BCB API Pix (v2)"; issue 14 §3): every call goes through the injected `fetch` (ProviderContext)
 * with mutual TLS (`tls: {cert, key, ca}`: our client certificate and key; the server is checked
 * against the connection's `ca_certificates` when given, which then replace the system roots (a
 * pin, and ~0.2 ms cheaper per call than adding ~140 system roots), else the system roots), a connect and a total
 * timeout, and at most `maxConcurrent` calls in flight per connection. Access tokens: OAuth2 client credentials (RFC
 * 6749 4.4) at
 * `token_url`, credentials in HTTP Basic (RFC 6749 2.3.1) or, for PSPs that want them there, in
 * the form; an optional `scope`; cached until 60 s before `expires_in` (3600 s assumed when the
 * PSP omits it), one token call at a time, and replaced once when the API answers 401.
 * Provider URLs are the operator's and trusted: no webhook address guard applies here.
 * Results are typed (results.ts); nothing here throws for a PSP's answer or a network failure.
 */
import type { Clock } from "../../lib/clock";
import type { HttpFetch } from "../../domain/providers/types";
import type { ConnectionSpec } from "../../domain/pix-provider/port";
import { Limiter } from "./limiter";
import { clip, oauthFailureOf, problemOf, type PspResult } from "./results";

/** A connection with its secrets opened: what the client needs to reach the PSP (one shape with the domain's port). */
export type BcbConnection = ConnectionSpec;

export interface ClientOptions {
  fetch: HttpFetch;
  /** Token lifetimes are measured with it (the injected clock). */
  clock: Clock;
  /** Milliseconds until the response headers arrive (connection, TLS, request). Default 10 000. */
  connectTimeoutMs?: number;
  /** Milliseconds for the whole exchange, body included. Default 30 000. */
  totalTimeoutMs?: number;
  /** Calls of this connection in flight at once. Default 16. */
  maxConcurrent?: number;
}

export interface CallOptions {
  /** JSON request body. */
  body?: unknown;
  /** Query parameters (before the connection's own `apiQuery`). */
  query?: Record<string, string>;
  /** Extra request headers (e.g. Efí's `x-skip-mtls-checking` on the webhook registration). */
  headers?: Record<string, string>;
  /**
   * true: `path` is relative to `api_url` itself, never to the standard API's base (an `efi`
   * connection's own routes, `/v3/gn/pix/{idEnvio}`); false (default): relative to the base of
   * the standard's routes (`api_url`, or `api_url` + `/v2` for `efi`).
   */
  fromOrigin?: boolean;
}

/** Path of the BCB API Pix routes below an `efi` connection's `api_url` (its origin). */
export const EFI_STANDARD_PREFIX = "/v2";

/** Seconds before `expires_in` when a cached token is no longer used. */
export const TOKEN_MARGIN_SECONDS = 60;
const DEFAULT_EXPIRES_IN = 3600;

interface CachedToken {
  token: string;
  /** Epoch ms (clock) after which a new token is fetched. */
  renewAt: number;
}

type Raw = { kind: "answer"; status: number; text: string } | Extract<PspResult, { kind: "timeout" | "network" }>;

export class BcbPixClient {
  private readonly limiter: Limiter;
  private readonly tls: { cert: string; key: string; ca?: string };
  private cached: CachedToken | null = null;
  private pending: Promise<PspResult<string>> | null = null;
  private readonly connectMs: number;
  private readonly totalMs: number;

  constructor(
    readonly conn: BcbConnection,
    private readonly opts: ClientOptions,
  ) {
    this.limiter = new Limiter(opts.maxConcurrent ?? 16);
    this.connectMs = opts.connectTimeoutMs ?? 10_000;
    this.totalMs = opts.totalTimeoutMs ?? 30_000;
    this.tls = {
      cert: conn.certificate,
      key: conn.privateKey,
      ...(conn.caCertificates ? { ca: conn.caCertificates } : {}),
    };
  }

  /** A valid access token: the cached one, or a new one from `token_url` (one call at a time). */
  token(): Promise<PspResult<string>> {
    const c = this.cached;
    if (c && this.opts.clock.nowMs() < c.renewAt) return Promise.resolve({ kind: "ok", status: 200, body: c.token });
    this.pending ??= this.fetchToken().finally(() => (this.pending = null));
    return this.pending;
  }

  /** Forgets the cached token when it is still `token` (a 401 answered it). */
  private dropToken(token: string): void {
    if (this.cached?.token === token) this.cached = null;
  }

  private async fetchToken(): Promise<PspResult<string>> {
    const { conn } = this;
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (conn.scope) form.set("scope", conn.scope);
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    };
    if (conn.tokenAuth === "basic") {
      // RFC 6749 2.3.1: each part form-urlencoded before Base64.
      const user = encodeURIComponent(conn.clientId);
      const pass = encodeURIComponent(conn.clientSecret);
      headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
    } else {
      form.set("client_id", conn.clientId);
      form.set("client_secret", conn.clientSecret);
    }
    const raw = await this.exchange("POST", conn.tokenUrl, headers, form.toString());
    if (raw.kind !== "answer") return raw;
    if (raw.status >= 500) return problemOf(raw.status, raw.text);
    if (raw.status < 200 || raw.status >= 300) return oauthFailureOf(raw.status, raw.text);
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(raw.text);
    } catch {
      return {
        kind: "auth_failed",
        status: raw.status,
        error: null,
        message: `${raw.status} token answer is not JSON: ${clip(raw.text)}`,
      };
    }
    if (typeof body?.access_token !== "string" || body.access_token === "")
      return {
        kind: "auth_failed",
        status: raw.status,
        error: null,
        message: `${raw.status} token answer has no access_token`,
      };
    const expiresIn = Number(body.expires_in) > 0 ? Number(body.expires_in) : DEFAULT_EXPIRES_IN;
    this.cached = {
      token: body.access_token,
      renewAt: this.opts.clock.nowMs() + (expiresIn - TOKEN_MARGIN_SECONDS) * 1000,
    };
    return { kind: "ok", status: raw.status, body: body.access_token };
  }

  /**
   * One API call: `method` `{api_url}{path}` with a bearer token; a 401 drops the token and the
   * call is made once more with a fresh one. 2xx -> ok (parsed JSON or null); else http_error,
   * auth_failed, timeout or network.
   */
  async call<T = unknown>(method: string, path: string, opts: CallOptions = {}): Promise<PspResult<T>> {
    const url = this.apiUrl(
      opts.fromOrigin || this.conn.type !== "efi" ? path : EFI_STANDARD_PREFIX + path,
      opts.query,
    );
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    for (let attempt = 0; ; attempt++) {
      const tok = await this.token();
      if (tok.kind !== "ok") return tok;
      const headers: Record<string, string> = {
        ...opts.headers,
        authorization: `Bearer ${tok.body}`,
        accept: "application/json",
      };
      if (body !== undefined) headers["content-type"] = "application/json";
      const raw = await this.exchange(method, url, headers, body);
      if (raw.kind !== "answer") return raw;
      if (raw.status === 401) {
        this.dropToken(tok.body);
        if (attempt === 0) continue;
        const p = problemOf(raw.status, raw.text);
        return {
          kind: "auth_failed",
          status: 401,
          error: null,
          message: `the API refused a fresh token: ${p.message}`,
        };
      }
      if (raw.status < 200 || raw.status >= 300) return problemOf(raw.status, raw.text);
      if (raw.text.trim() === "") return { kind: "ok", status: raw.status, body: null as T };
      try {
        return { kind: "ok", status: raw.status, body: JSON.parse(raw.text) as T };
      } catch {
        return {
          kind: "http_error",
          status: raw.status,
          type: null,
          title: null,
          detail: null,
          violacoes: [],
          message: `${raw.status} answer is not JSON: ${clip(raw.text)}`,
        };
      }
    }
  }

  /** `{api_url}{path}?{query}&{apiQuery}` (`path` as given: `call` adds an `efi` connection's `/v2`). */
  apiUrl(path: string, query?: Record<string, string>): string {
    const url = new URL(this.conn.apiUrl.replace(/\/+$/, "") + path);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    for (const [k, v] of Object.entries(this.conn.apiQuery ?? {})) url.searchParams.set(k, v);
    return url.toString();
  }

  /** One HTTP exchange under the concurrency cap and both timeouts; the body is read in full. */
  private exchange(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Raw> {
    return this.limiter.run(async () => {
      const abort = new AbortController();
      let phase: "connect" | "total" | null = null;
      const connectTimer = setTimeout(() => {
        phase = "connect";
        abort.abort();
      }, this.connectMs);
      const totalTimer = setTimeout(() => {
        phase ??= "total";
        abort.abort();
      }, this.totalMs);
      try {
        const res = await this.opts.fetch(url, {
          method,
          headers,
          body,
          signal: abort.signal,
          redirect: "manual",
          tls: this.tls,
        } as RequestInit);
        clearTimeout(connectTimer);
        const text = await res.text();
        return { kind: "answer", status: res.status, text } as const;
      } catch (err) {
        if (phase) {
          const ms = phase === "connect" ? this.connectMs : this.totalMs;
          return {
            kind: "timeout",
            phase,
            message: `${method} ${hostOf(url)}: no ${phase === "connect" ? "answer" : "complete answer"} within ${ms} ms`,
          } as const;
        }
        return { kind: "network", message: `${method} ${hostOf(url)}: ${describeNetworkError(err)}` } as const;
      } finally {
        clearTimeout(connectTimer);
        clearTimeout(totalTimer);
      }
    });
  }
}

function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(bad url)";
  }
}

/** A network error as text: Bun's `code` (e.g. ECONNREFUSED, UNABLE_TO_VERIFY_LEAF_SIGNATURE) and message. */
function describeNetworkError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === "string" ? e.code : null;
  const msg = typeof e?.message === "string" ? e.message : String(err);
  return clip(code && !msg.includes(code) ? `${code}: ${msg}` : msg);
}
