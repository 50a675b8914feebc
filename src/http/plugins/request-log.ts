/**
 * Global hook that records every apikey-authenticated request in the request log (interface.md
 * "Authentication" 9): time, method, path, status, request id, key fingerprint. The apikey
 * plugin fills `requestFacts(request)`; requests without a resolved key are not recorded.
 * Mounted once from src/app.ts.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { recordRequest } from "../../domain/audit/request-log";
import { pathOf, requestFacts } from "../context";

export function requestLogPlugin(deps: Deps) {
  return new Elysia().onAfterResponse({ as: "global" }, ({ request, set }) => {
    const facts = requestFacts(request);
    if (!facts.accountId || !facts.fingerprint) return;
    recordRequest(deps.db, {
      accountId: facts.accountId,
      livemode: facts.livemode ?? false,
      method: request.method,
      path: pathOf(request),
      status: facts.status ?? (typeof set.status === "number" ? set.status : 200),
      requestId: facts.requestId,
      keyFingerprint: facts.fingerprint,
      durationMs: performance.now() - facts.startedAt,
      at: deps.clock.nowMs(),
    });
  });
}
