/**
 * `apikey` header authentication for every server-to-server group (interface.md
 * "Authentication" 1-3), plus the per-key rate limit and its headers.
 *
 * The key is compared exactly: anything but `ak_test_`/`ak_live_` + 32 base64url characters is
 * 401 (a key wrapped in non-ASCII whitespace such as U+00A0, or with any inner character added).
 * Note: HTTP itself (RFC 9110 field values; the Fetch Headers API; Bun's parser) strips leading and
 * trailing SP/HTAB before any application code runs, so those never reach this check.
 * Resolved keys come from the key cache (`deps.apiKeyCache`, src/domain/api-keys/cache.ts): a hit
 * is answered without awaiting the store; every unit of work that writes `api_keys` clears it on
 * commit, so a rotated or revoked key still fails on the very next request. Malformed keys are
 * rejected before any lookup.
 * A request without an `apikey` header may instead carry the dashboard session cookie
 * (./session-auth.ts: CSRF, `Cofre-Mode`, roles); requests with a key never look at cookies.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../domain/deps";
import { resolveApiKey, type ResolvedApiKey } from "../../domain/api-keys/cache";
import { ApiError } from "../errors";
import { requestFacts } from "../context";
import type { Caller } from "../../domain/scope";
import { sessionApiAuth, sessionCookieValue } from "./session-auth";

/** Who is calling: the key's account and mode (src/domain/scope.ts). Every read and write is scoped by both. */
export type ApiKeyAuth = Caller;

/** `ak_` + mode + `_` + 24 random bytes as unpadded base64url (32 characters). */
const KEY_SHAPE = /^ak_(test|live)_[A-Za-z0-9_-]{32}$/;

/** API keys go in the `apikey` header; say so to a caller who sent one as a bearer token (failure path only). */
export const KEY_IN_BEARER = "API keys go in the `apikey` header, not Authorization: Bearer.";

/** True when an Authorization header carries an API key (`ak_...`, bare or as a bearer token). */
export function apiKeyInAuthorization(header: string | null): boolean {
  return /^(?:bearer\s+)?ak_/i.test(header ?? "");
}

function missingKeyMessage(request: Request): string {
  return apiKeyInAuthorization(request.headers.get("authorization")) ? KEY_IN_BEARER : "Missing or invalid API key.";
}

type SetHeaders = { headers: Record<string, string | number> };

/**
 * Resolves `apikey` to an ApiKeyAuth or throws 401 `unauthorized`; 429 `rate_limited` over the
 * limit. Synchronous on a key-cache hit; a Promise on a miss or for a dashboard session cookie.
 */
export function authenticateApiKey(
  deps: Deps,
  raw: string | undefined | null,
  request: Request,
  set: SetHeaders,
): ApiKeyAuth | Promise<ApiKeyAuth> {
  if (!raw) {
    // No key: the dashboard's cookie session is the only other way in (never looked at when a key is sent).
    const cookie = sessionCookieValue(request);
    if (cookie) return sessionApiAuth(deps, request, cookie, set);
  }
  if (!raw || !KEY_SHAPE.test(raw))
    throw new ApiError("unauthorized", raw ? "Missing or invalid API key." : missingKeyMessage(request));
  const key = resolveApiKey(deps, raw);
  return key instanceof Promise ? key.then((k) => keyAuth(deps, k, request, set)) : keyAuth(deps, key, request, set);
}

/** The ApiKeyAuth of resolved `key` (401 when undefined), after the per-key rate limit. */
function keyAuth(deps: Deps, key: ResolvedApiKey | undefined, request: Request, set: SetHeaders): ApiKeyAuth {
  if (!key) throw new ApiError("unauthorized", "Missing or invalid API key.");
  // A fresh object per request: handlers get their own `auth`, the cached entry stays shared.
  const auth: ApiKeyAuth = {
    accountId: key.accountId,
    livemode: key.livemode,
    mode: key.mode,
    keyId: key.id,
    fingerprint: key.fingerprint,
  };
  const facts = requestFacts(request);
  facts.fingerprint = key.fingerprint;
  facts.accountId = key.accountId;
  facts.livemode = key.livemode;
  if (deps.rateLimiter.enabled) {
    const d = deps.rateLimiter.hit(key.id, key.accountId);
    set.headers["x-ratelimit-limit-minute"] = String(d.limit);
    set.headers["x-ratelimit-remaining-minute"] = String(d.remaining);
    if (!d.allowed)
      throw new ApiError("rate_limited", "Too many requests for this API key; retry after the window resets.", {
        headers: {
          "Retry-After": String(d.resetIn),
          "X-RateLimit-Limit-Minute": String(d.limit),
          "X-RateLimit-Remaining-Minute": "0",
        },
      });
  }
  return auth;
}

/**
 * Elysia plugin: `.use(apiKeyAuth(deps))` gives every later route of the group `auth`.
 * Runs at `derive` (before body validation), so a bad key is 401 whatever the body. On a cache
 * hit the awaited value is already there (no store read).
 */
export function apiKeyAuth(deps: Deps) {
  return new Elysia().derive({ as: "scoped" }, async ({ request, set }) => ({
    auth: await authenticateApiKey(deps, request.headers.get("apikey"), request, set as never),
  }));
}

/** Throws 403 `test_mode_only` unless the caller uses a test key (sandbox helpers). */
export function requireTestMode(auth: ApiKeyAuth): void {
  if (auth.livemode) throw new ApiError("test_mode_only", "This route is only available with a test (ak_test_) key.");
}
