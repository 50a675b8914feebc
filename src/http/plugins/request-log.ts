/**
 * Records an apikey-authenticated request in the request log (interface.md "Authentication" 9):
 * time, method, path, status, request id, key fingerprint. The apikey plugin fills
 * `requestFacts(request)`; requests without a resolved key are not recorded. Called from the
 * app's one after-response hook (src/app.ts), next to the access line.
 */
import type { Deps } from "../../domain/deps";
import { recordRequest } from "../../domain/audit/request-log";
import { pathOf, requestFacts } from "../context";

/** Queues the log row of `request` (answered with `status` after `durationMs`), when a key authenticated it. */
export function logApiRequest(deps: Deps, request: Request, status: number, durationMs: number): void {
  const facts = requestFacts(request);
  if (!facts.accountId || !facts.fingerprint) return;
  recordRequest(deps, {
    accountId: facts.accountId,
    livemode: facts.livemode ?? false,
    method: request.method,
    path: pathOf(request),
    status,
    requestId: facts.requestId,
    keyFingerprint: facts.fingerprint,
    durationMs,
    at: facts.at ?? deps.clock.nowMs(), // arrival, not when this hook runs (a later turn)
  });
}
