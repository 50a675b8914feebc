/**
 * SQLite implementation of the request-log repository (src/store/port/request-log.ts). Entries go
 * to the main database's `request_logs` in batches (one prepared insert per row): under group
 * commit right before the turn's group commits, else in their own transaction on the next turn of
 * the event loop, so logging adds no commit to the request path. Under `serve` they go to the
 * log's own file instead, written by a worker thread (./request-log-file.ts).
 */
import type { Statement } from "bun:sqlite";
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { requestLogs } from "../../../db/schema";
import { beforeGroupCommit } from "./group-commit";
import type { Store } from "../port";
import type { RequestLogRepo } from "../port/request-log";
import type { SqliteContext } from "./context";
import { sqliteStoreOf } from "./of";
import { DELETE_BEFORE_SQL, FIRST_KEPT_SQL, type LogRow, type RequestLogFile } from "./request-log-file";

/** Most rows held before a synchronous flush. */
const MAX_BUFFER = 500;

/** Writes queued rows into the main database in batches. */
class MainDbWriter {
  private buffer: LogRow[] = [];
  private scheduled = false;
  private readonly insert: Statement;
  private readonly begin: Statement;
  private readonly commit: Statement;
  constructor(private readonly ctx: SqliteContext) {
    // Raw prepared statements (hot path: one row per authenticated request).
    this.insert = ctx.stmt(
      "insert into request_logs (id, account_id, livemode, method, path, status, request_id, key_fingerprint, duration_ms, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.begin = ctx.stmt("begin immediate");
    this.commit = ctx.stmt("commit");
  }

  push(row: LogRow): void {
    this.buffer.push(row);
    if (this.buffer.length >= MAX_BUFFER) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      // Under group commit (serve) the rows ride in the turn's group: no commit of their own.
      if (!beforeGroupCommit(this.ctx.client, this.flushNow)) setImmediate(this.flushNow);
    }
  }

  private readonly flushNow = () => this.flush();

  flush(): void {
    this.scheduled = false;
    if (this.buffer.length === 0) return;
    const rows = this.buffer;
    this.buffer = [];
    const c = this.ctx.client;
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

/** Where the log of one connection lives: the main database (its writer) or the log's own file. */
interface LogState {
  writer: MainDbWriter | null;
  file: RequestLogFile | null;
}
const states = new WeakMap<SqliteContext, LogState>();

/**
 * From now on the request log of `store` lives in `file` (serve; ./request-log-file.ts): rows
 * queued for the main database are written there first. Throws when `store` is not a SQLite store.
 */
export function useRequestLogFile(store: Store, file: RequestLogFile): void {
  const state = states.get(sqliteStoreOf(store).ctx);
  if (!state) throw new Error("no request-log repository on this connection");
  state.writer?.flush();
  state.file = file;
}

/** Builds the request-log repository on the adapter's connection `ctx`. */
export function requestLogRepo(ctx: SqliteContext): RequestLogRepo {
  const state: LogState = { writer: null, file: null };
  states.set(ctx, state);
  const writer = () => (state.writer ??= new MainDbWriter(ctx));
  const flushed = async () => {
    if (state.file) await state.file.flushed();
    else state.writer?.flush();
  };
  return {
    append(e) {
      const row: LogRow = [
        e.id,
        e.accountId,
        e.livemode ? 1 : 0,
        e.method,
        e.path,
        e.status,
        e.requestId,
        e.keyFingerprint,
        e.durationMs,
        e.createdAt,
      ];
      if (state.file) state.file.push(row);
      else writer().push(row);
    },
    flushed,
    async pruneBefore(beforeMs) {
      if (state.file) return state.file.prune(beforeMs);
      await flushed();
      const first = ctx.stmt(FIRST_KEPT_SQL).get(beforeMs) as { seq: number } | null;
      return first
        ? ctx.stmt(DELETE_BEFORE_SQL).run(first.seq).changes
        : ctx.client.run("DELETE FROM request_logs").changes;
    },
    async page(accountId, q) {
      const db = state.file?.reader ?? ctx.db;
      const where: SQL[] = [eq(requestLogs.accountId, accountId)];
      if (q.startingAfter !== undefined) {
        const c = db
          .select({ seq: requestLogs.seq })
          .from(requestLogs)
          .where(and(eq(requestLogs.id, q.startingAfter), eq(requestLogs.accountId, accountId)))
          .get();
        if (!c) return null;
        where.push(lt(requestLogs.seq, c.seq));
      }
      if (q.status !== undefined) where.push(eq(requestLogs.status, q.status));
      if (q.keyFingerprint !== undefined) where.push(eq(requestLogs.keyFingerprint, q.keyFingerprint));
      return db
        .select()
        .from(requestLogs)
        .where(and(...where))
        .orderBy(desc(requestLogs.seq))
        .limit(q.limit)
        .all();
    },
  };
}
