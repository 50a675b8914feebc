/**
 * The request log (interface.md "Authentication" 9): one entry per apikey-authenticated request,
 * queued by the HTTP layer after the response and written in batches by the store
 * (src/store/port/request-log.ts; how is the adapter's business), so logging adds no commit to
 * the request path. `listRequestLogs` sees every entry
 * queued before it.
 */
import type { Deps } from "../deps";
import { iso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { RequestLogRow } from "../../store/rows";
import { invalidParam } from "../errors";

export interface RequestLogInput {
  accountId: string;
  livemode: boolean;
  method: string;
  path: string;
  status: number;
  requestId: string;
  keyFingerprint: string;
  durationMs: number;
  /** Epoch ms. */
  at: number;
}

/** Queues one entry (path cut at 500 characters, duration rounded to whole ms); never throws. */
export function recordRequest(deps: Pick<Deps, "store">, e: RequestLogInput): void {
  deps.store.read.requestLog.append({
    id: newId("requestLog"),
    accountId: e.accountId,
    livemode: e.livemode,
    method: e.method,
    path: e.path.slice(0, 500),
    status: e.status,
    requestId: e.requestId,
    keyFingerprint: e.keyFingerprint,
    durationMs: Math.max(0, Math.round(e.durationMs)),
    createdAt: e.at,
  });
}

/** Writes every queued entry now; resolves once they are readable. */
export function flushRequestLog(deps: Pick<Deps, "store">): Promise<void> {
  return deps.store.read.requestLog.flushed();
}

/**
 * Deletes the log entries created before `beforeMs` (epoch ms) wherever the log lives; resolves
 * with how many (the hourly prune, ./jobs.ts).
 */
export function pruneRequestLog(deps: Pick<Deps, "store">, beforeMs: number): Promise<number> {
  return deps.store.read.requestLog.pruneBefore(beforeMs);
}

export interface RequestLogQuery {
  /** 1-100. */
  limit: number;
  startingAfter?: string;
  status?: number;
  fingerprint?: string;
}

/** Public shape of one log entry. */
export function requestLogView(r: RequestLogRow) {
  return {
    id: r.id,
    created_at: iso(r.createdAt),
    method: r.method,
    path: r.path,
    status: r.status,
    request_id: r.requestId,
    key_fingerprint: r.keyFingerprint,
    mode: r.livemode ? "live" : "test",
    duration_ms: r.durationMs,
  };
}

/**
 * The account's log entries, newest first, after the cursor `startingAfter` (an id of one of the
 * account's entries, else 400 `invalid_cursor`). Returns `{object: "list", data, has_more, next_cursor}`.
 */
export async function listRequestLogs(deps: Pick<Deps, "store">, accountId: string, q: RequestLogQuery) {
  const log = deps.store.read.requestLog;
  await log.flushed();
  const rows = await log.page(accountId, {
    limit: q.limit + 1,
    startingAfter: q.startingAfter,
    status: q.status,
    keyFingerprint: q.fingerprint,
  });
  if (!rows) throw invalidParam("starting_after", "Not a request log entry of this account.", "invalid_cursor");
  const hasMore = rows.length > q.limit;
  const data = rows.slice(0, q.limit).map(requestLogView);
  return { object: "list" as const, data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.id : null };
}
