/**
 * psp-sim OAuth2 client credentials (RFC 6749 4.4; the API Pix `securitySchemes.OAuth2`):
 * `POST /oauth/token` with Basic `client_id:client_secret` (or both in the form, as some PSPs
 * accept) and `grant_type=client_credentials`, form-encoded or JSON; optional `scope` (space
 * separated, a subset of `SCOPES`). Answers `{access_token, token_type: "Bearer", expires_in
 * (seconds), scope}`; errors per RFC 6749 5.2. API calls carry `Authorization: Bearer`; a missing,
 * unknown or expired token is 401 (RFC 6750 `WWW-Authenticate`), a token without the route's
 * scope 403 `AcessoNegado`. Tokens are not bound to the client certificate (Bun.serve does not
 * expose the peer certificate per request); mTLS itself is enforced at the handshake.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Reply, SimEnv } from "./core";
import { PixProblem, problem } from "./problems";
import { secretHash } from "./setup";
import type { ClientRow } from "./store";

/**
 * Scopes this simulator grants (the API Pix scopes of the resources it implements, then Efí's send, balance and
 * infraction scopes).
 */
export const SCOPES = [
  "cob.write",
  "cob.read",
  "pix.write",
  "pix.read",
  "webhook.write",
  "webhook.read",
  "pix.send",
  "gn.pix.send.read",
  "gn.balance.read",
  "gn.infractions.read",
  "gn.infractions.write",
] as const;
export type Scope = (typeof SCOPES)[number];

function oauthError(status: number, error: string, description: string, headers?: Record<string, string>): Reply {
  return {
    status,
    body: { error, error_description: description },
    headers: { "cache-control": "no-store", ...headers },
  };
}

function parseForm(contentType: string, raw: string): Record<string, string> | null {
  if (contentType.includes("application/json")) {
    try {
      const v = JSON.parse(raw);
      return typeof v === "object" && v && !Array.isArray(v)
        ? (Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) as Record<string, string>)
        : null;
    } catch {
      return null;
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

function sameSecret(client: ClientRow, secret: string): boolean {
  const a = Buffer.from(client.secret_sha256, "hex");
  const b = Buffer.from(secretHash(secret), "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `POST /oauth/token`. */
export function tokenEndpoint(env: SimEnv, authorization: string | null, contentType: string, raw: string): Reply {
  const form = parseForm(contentType, raw);
  if (!form) return oauthError(400, "invalid_request", "body must be application/x-www-form-urlencoded (or JSON)");
  let id = form.client_id;
  let secret = form.client_secret;
  if (authorization?.toLowerCase().startsWith("basic ")) {
    const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0)
      return oauthError(401, "invalid_client", "malformed Basic credentials", {
        "www-authenticate": 'Basic realm="psp-sim"',
      });
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  if (form.grant_type !== "client_credentials")
    return oauthError(
      400,
      form.grant_type ? "unsupported_grant_type" : "invalid_request",
      "grant_type must be client_credentials",
    );
  const client = id ? env.store.client(id) : null;
  if (env.faults.takeAuthFailure() || !client || secret === undefined || !sameSecret(client, secret))
    return oauthError(401, "invalid_client", "unknown client or wrong secret", {
      "www-authenticate": 'Basic realm="psp-sim"',
    });
  const asked = form.scope?.trim() ? form.scope.trim().split(/\s+/) : [...SCOPES];
  const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) return oauthError(400, "invalid_scope", `unknown scope: ${unknown.join(" ")}`);
  const token = randomBytes(32).toString("base64url");
  const ttl = env.tokenTtlSeconds;
  env.store.insertToken({
    token,
    client_id: client.client_id,
    scopes: asked.join(" "),
    expires_ms: env.clock.nowMs() + ttl * 1000,
  });
  return {
    status: 200,
    body: { access_token: token, token_type: "Bearer", expires_in: ttl, scope: asked.join(" ") },
    headers: { "cache-control": "no-store" },
  };
}

function unauthorized(error: string, description: string): PixProblem {
  const p = new PixProblem({ type: "about:blank", title: "Unauthorized", status: 401, detail: description });
  p.headers = { "www-authenticate": `Bearer realm="psp-sim", error="${error}", error_description="${description}"` };
  return p;
}

/** The client behind `Authorization: Bearer ...` holding `scope`; throws 401/403 problems. */
export function authenticate(env: SimEnv, authorization: string | null, scope: Scope): ClientRow {
  if (!authorization?.toLowerCase().startsWith("bearer "))
    throw unauthorized("invalid_request", "missing bearer token");
  const row = env.store.token(authorization.slice(7).trim());
  if (!row) throw unauthorized("invalid_token", "unknown token");
  if (row.expires_ms <= env.clock.nowMs()) throw unauthorized("invalid_token", "token expired");
  if (!row.scopes.split(" ").includes(scope)) throw problem("AcessoNegado", `o token não tem o escopo ${scope}`);
  return env.store.client(row.client_id)!;
}
