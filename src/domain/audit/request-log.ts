/**
 * The request log (interface.md "Authentication" 9): one row per apikey-authenticated request.
 * `serve` keeps it in its own file written by a worker thread (request-log-file.ts,
 * `useRequestLogFile`). Otherwise (tests, in-memory databases) rows go to the main database's
 * `request_logs` table in batches (one prepared insert per row): under group commit right before
 * the turn's group commits, else in their own transaction on the next turn of the event loop, so
 * logging adds no commit to the request path. `listRequestLogs` sees every row queued before it.
 */
import type { Statement } from "bun:sqlite";
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { requestLogs } from "../../../db/schema";
import type { Db } from "../../db/client";
import { iso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { invalidParam } from "../errors";
import { beforeGroupCommit } from "../../db/group-commit";
import { DELETE_BEFORE_SQL, FIRST_KEPT_SQL, type LogRow, type RequestLogFile } from "./request-log-file";

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

/** Most rows held before a synchronous flush. */
const MAX_BUFFER = 500;


class RequestLogWriter {
  private buffer: LogRow[] = [];
  private scheduled = false;
  private insert: Statement;
  private begin: Statement;
  private commit: Statement;
  constructor(private readonly db: Db) {
    // Raw prepared statements (hot path: one row per authenticated request).
    this.insert = db.$client.prepare(
      "insert into request_logs (id, account_id, livemode, method, path, status, request_id, key_fingerprint, duration_ms, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.begin = db.$client.prepare("begin immediate");
    this.commit = db.$client.prepare("commit");
  }

  push(row: LogRow): void {
    this.buffer.push(row);
    if (this.buffer.length >= MAX_BUFFER) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      // Under group commit (serve) the rows ride in the turn's group: no commit of their own.
      if (!beforeGroupCommit(this.db.$client, this.flushNow)) setImmediate(this.flushNow);
    }
  }

  private readonly flushNow = () => this.flush();

  flush(): void {
    this.scheduled = false;
    if (this.buffer.length === 0) return;
    const rows = this.buffer;
    this.buffer = [];
    const c = this.db.$client;
    try {
      // Inside someone's open transaction (a reader flushing first) the rows join it.
      if (c.inTransaction) {
        for (const r of rows) this.insert.run(...r);
        return;
      }
      this.begin.run();
      try {
        for (const r of rows) this.insert.run(...r);
        this.commit.run();
      } catch (err) {
        if (c.inTransaction) c.run("rollback");
        throw err;
      }
    } catch {
      // The database is closed (shutdown) or failing: request logging never breaks a request.
    }
  }
}

const writers = new WeakMap<Db, RequestLogWriter>();
function writer(db: Db): RequestLogWriter {
  let w = writers.get(db);
  if (!w) writers.set(db, (w = new RequestLogWriter(db)));
  return w;
}

const files = new WeakMap<Db, RequestLogFile>();

/** From now on the request log of `db` lives in `file` (serve; see request-log-file.ts). */
export function useRequestLogFile(db: Db, file: RequestLogFile): void {
  writers.get(db)?.flush();
  files.set(db, file);
}

/** Queues one row (written within the next event-loop turn). */
export function recordRequest(db: Db, e: RequestLogInput): void {
  const row: LogRow = [
    newId("requestLog"),
    e.accountId,
    e.livemode ? 1 : 0,
    e.method,
    e.path.slice(0, 500),
    e.status,
    e.requestId,
    e.keyFingerprint,
    Math.max(0, Math.round(e.durationMs)),
    e.at,
  ];
  const file = files.get(db);
  if (file) file.push(row);
  else writer(db).push(row);
}

/** Writes every queued row now; resolves once they are readable. */
export async function flushRequestLog(db: Db): Promise<void> {
  const file = files.get(db);
  if (file) await file.flushed();
  else writers.get(db)?.flush();
}

/**
 * Deletes the log rows created before `beforeMs` (epoch ms) wherever the log lives; returns how
 * many. Rows are in insertion order, so this removes the run of old rows at the start.
 */
export async function pruneRequestLog(db: Db, beforeMs: number): Promise<number> {
  const file = files.get(db);
  if (file) return file.prune(beforeMs);
  await flushRequestLog(db);
  const first = db.$client.query(FIRST_KEPT_SQL).get(beforeMs) as { seq: number } | null;
  return first ? db.$client.run(DELETE_BEFORE_SQL, [first.seq]).changes : db.$client.run("DELETE FROM request_logs").changes;
}

export interface RequestLogQuery {
  /** 1-100. */
  limit: number;
  startingAfter?: string;
  status?: number;
  fingerprint?: string;
}

/** Public shape of one log row. */
export function requestLogView(r: typeof requestLogs.$inferSelect) {
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
 * The account's log rows, newest first, after the cursor `startingAfter` (an id of one of the
 * account's rows, else 400 `invalid_cursor`). Returns `{object: "list", data, has_more, next_cursor}`.
 */
export async function listRequestLogs(main: Db, accountId: string, q: RequestLogQuery) {
  await flushRequestLog(main);
  const db = files.get(main)?.reader ?? main;
  const where: SQL[] = [eq(requestLogs.accountId, accountId)];
  if (q.startingAfter !== undefined) {
    const c = db
      .select({ seq: requestLogs.seq })
      .from(requestLogs)
      .where(and(eq(requestLogs.id, q.startingAfter), eq(requestLogs.accountId, accountId)))
      .get();
    if (!c) throw invalidParam("starting_after", "Not a request log entry of this account.", "invalid_cursor");
    where.push(lt(requestLogs.seq, c.seq));
  }
  if (q.status !== undefined) where.push(eq(requestLogs.status, q.status));
  if (q.fingerprint !== undefined) where.push(eq(requestLogs.keyFingerprint, q.fingerprint));
  const rows = db
    .select()
    .from(requestLogs)
    .where(and(...where))
    .orderBy(desc(requestLogs.seq))
    .limit(q.limit + 1)
    .all();
  const hasMore = rows.length > q.limit;
  const data = rows.slice(0, q.limit).map(requestLogView);
  return { object: "list" as const, data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.id : null };
}
