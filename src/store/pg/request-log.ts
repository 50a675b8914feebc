/**
 * PostgreSQL implementation of the request-log repository (src/store/port/request-log.ts): the
 * `request_logs` table, shared by every instance. `append` (on every authenticated request's
 * path) only queues the entry in memory; the queue is written on the pool, outside any unit of
 * work, as one multi-row insert per FLUSH_MS or per MAX_BATCH entries, batches one after the
 * other so `seq` (the listing order, as on SQLite) follows this instance's append order. The log
 * is diagnostics: a batch that fails is logged and dropped, never retried. The store's `close`
 * writes the queue first (`RequestLogWriter.close`).
 */
import type { RequestLogEntry, RequestLogRepo } from "../port/request-log";
import type { RequestLogRow } from "../rows";
import type { SQL } from "bun";
import type { Logger } from "../../lib/logger";
import type { PgContext } from "./context";
import { numberOf, rowsOf } from "./map";

/** Milliseconds an entry waits in the queue at most before its batch is written. */
export const FLUSH_MS = 20;
/** Entries per insert at most (a full queue is written at once). */
export const MAX_BATCH = 500;

/** The queue of one store (`PgShared.requestLog`: every repository built on its contexts shares it). */
export class RequestLogWriter {
  private queue: RequestLogEntry[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Settles once every batch started so far has been written (or dropped). */
  private written: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly pool: SQL,
    private readonly logger?: Pick<Logger, "error">,
  ) {}

  push(e: RequestLogEntry): void {
    if (this.closed) return;
    this.queue.push(e);
    // flush() never rejects: a failed batch is logged and dropped in write().
    if (this.queue.length >= MAX_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Starts writing the queue (after the batches already started); returns when all of them are written. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.written = this.written.then(() => this.write(batch));
    }
    return this.written;
  }

  /** Writes what is queued, then drops whatever is appended later (the store is closing). */
  close(): Promise<void> {
    const done = this.flush();
    this.closed = true;
    return done;
  }

  private async write(batch: RequestLogEntry[]): Promise<void> {
    const col = <K extends keyof RequestLogEntry>(k: K) => batch.map((e) => e[k]);
    try {
      // unnest keeps one statement text whatever the batch size, and the rows (and their `seq`) in order.
      await this
        .pool`insert into request_logs (id, account_id, livemode, method, path, status, request_id, key_fingerprint, duration_ms, created_at)
        select id, a, l, m, p, s, q, k, d, c from unnest(${col("id")}::text[], ${col("accountId")}::text[], ${col("livemode")}::boolean[], ${col("method")}::text[],
          ${col("path")}::text[], ${col("status")}::bigint[], ${col("requestId")}::text[], ${col("keyFingerprint")}::text[],
          ${col("durationMs")}::bigint[], ${col("createdAt")}::bigint[]) with ordinality as r(id, a, l, m, p, s, q, k, d, c, n)
        order by n`;
    } catch (err) {
      this.logger?.error({ err, entries: batch.length }, "writing request log entries failed; they are dropped");
    }
  }
}

/** Builds the request-log repository on `ctx` (used on `store.read`: it never joins a unit). */
export function requestLogRepo(ctx: PgContext): RequestLogRepo {
  const writer = ctx.shared.requestLog;
  const sql = ctx.shared.pool;
  return {
    append(entry) {
      writer.push(entry);
    },
    flushed: () => writer.flush(),
    async pruneBefore(beforeMs) {
      await writer.flush();
      // As on SQLite: everything before the oldest entry (by seq) still inside the window.
      const r = await sql`delete from request_logs
        where seq < coalesce((select seq from request_logs where created_at >= ${beforeMs} order by seq limit 1), 9223372036854775807)`;
      return r.count;
    },
    async page(accountId, q) {
      let after = sql``;
      if (q.startingAfter !== undefined) {
        const seq = numberOf(
          await sql`select seq from request_logs where id = ${q.startingAfter} and account_id = ${accountId}`,
        );
        if (seq === null) return null;
        after = sql`and seq < ${seq}`;
      }
      const status = q.status === undefined ? sql`` : sql`and status = ${q.status}`;
      const key = q.keyFingerprint === undefined ? sql`` : sql`and key_fingerprint = ${q.keyFingerprint}`;
      return rowsOf<RequestLogRow>(
        await sql`select seq, id, account_id, livemode, method, path, status, request_id, key_fingerprint, duration_ms, created_at
          from request_logs where account_id = ${accountId} ${after} ${status} ${key} order by seq desc limit ${q.limit}`,
      );
    },
  };
}
