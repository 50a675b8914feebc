/**
 * The request log kept in its own SQLite file (`<dataDir>/request-log.db`) and written by a
 * worker thread: what `serve` uses (src/store/sqlite/serve.ts). Rows are handed over in batches;
 * the request thread never writes them.
 *
 * Why: one log row per apikey request is three B-tree inserts on the thread that serves HTTP
 * (measured ~6-8 us of a ~35 us `GET /v1/charges/{id}`). A second connection writing the main
 * database would contend for its single write lock (SQLite then makes the request thread wait in
 * its busy handler), so the log has a file of its own. The table is the same `request_logs`
 * (db/schema/auth.ts), so listing reads it with the same query through a read-only connection.
 *
 * Durability: a row reaches the file within ~20 ms of its response; rows not yet
 * written when the process is killed are lost (the log is diagnostics, never money). Readers
 * call `flushed()` first, so a listing shows every request answered before it.
 * Rows of databases from before this file existed are moved over once at start.
 */
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "../../../db/schema";
import type { Db } from "./client";
import { startInlineWorker } from "../../lib/inline-worker";
import type { Store } from "../port";
import { sqliteStoreOf } from "./of";

/** One row, in the column order of INSERT_COLUMNS. */
export type LogRow = [
  id: string,
  accountId: string,
  livemode: number,
  method: string,
  path: string,
  status: number,
  requestId: string,
  keyFingerprint: string,
  durationMs: number,
  createdAt: number,
];

const INSERT_COLUMNS =
  "id, account_id, livemode, method, path, status, request_id, key_fingerprint, duration_ms, created_at";

/**
 * Retention, wherever the log lives: rows are in seq order and created_at grows with seq, so the
 * old rows are the run before the first row at or after the cutoff (arg: cutoff, epoch ms)...
 */
export const FIRST_KEPT_SQL = "SELECT seq FROM request_logs WHERE created_at >= ? ORDER BY seq LIMIT 1";
/** ...deleted with this (arg: that seq), or every row when none is that recent. */
export const DELETE_BEFORE_SQL = "DELETE FROM request_logs WHERE seq < ?";

/** DDL of the log file: the same table and indexes as migration 0000 gives the main database. */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS request_logs (
  seq integer PRIMARY KEY AUTOINCREMENT NOT NULL, id text NOT NULL, account_id text NOT NULL, livemode integer NOT NULL,
  method text NOT NULL, path text NOT NULL, status integer NOT NULL, request_id text NOT NULL,
  key_fingerprint text NOT NULL, duration_ms integer NOT NULL, created_at integer NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS request_logs_id_unique ON request_logs (id);
CREATE INDEX IF NOT EXISTS request_logs_account_idx ON request_logs (account_id, seq);`;

/** The worker's code (src/lib/inline-worker.ts protocol: replies echo the request's `id`). */
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let db = null, insert = null;
self.onmessage = (e) => {
  const m = e.data;
  try {
    if (m.type === "start") {
      db = new Database(m.path, { create: true });
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec("PRAGMA busy_timeout = 5000");
      db.exec(m.schema);
      insert = db.prepare("INSERT OR IGNORE INTO request_logs (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
      let moved = 0;
      if (m.mainPath) {
        db.run("ATTACH DATABASE ? AS main_db", [m.mainPath]);
        moved = db.run("INSERT OR IGNORE INTO request_logs (${INSERT_COLUMNS}) SELECT ${INSERT_COLUMNS} FROM main_db.request_logs ORDER BY seq").changes;
        db.exec("DETACH DATABASE main_db");
      }
      postMessage({ type: "started", id: m.id, moved });
    } else if (m.type === "rows") {
      db.transaction((rows) => { for (const r of rows) insert.run(...r); })(JSON.parse(m.rows));
      if (m.id !== undefined) postMessage({ type: "flushed", id: m.id });
    } else if (m.type === "prune") {
      const first = db.query("${FIRST_KEPT_SQL}").get(m.before);
      const deleted = first ? db.run("${DELETE_BEFORE_SQL}", [first.seq]).changes : db.run("DELETE FROM request_logs").changes;
      postMessage({ type: "pruned", id: m.id, deleted });
    } else if (m.type === "stop") {
      db.close();
      postMessage({ type: "stopped" });
    }
  } catch (err) {
    postMessage({ type: "error", id: m.id, message: String(err) });
  }
};
`;

/** Rows wait at most this long (ms) before going to the worker... */
const HAND_OVER_MS = 20;
/** ...or until this many are queued. */
const HAND_OVER_ROWS = 1000;

export interface RequestLogFile {
  /** Queues one row; handed to the worker within HAND_OVER_MS. */
  push(row: LogRow): void;
  /** Resolves once every row pushed so far is committed to the file. */
  flushed(): Promise<void>;
  /** Deletes the rows created before `beforeMs` (epoch ms); resolves with how many. */
  prune(beforeMs: number): Promise<number>;
  /** Read-only drizzle handle on the log file (`requestLogs` table). */
  reader: Db;
  /** Hands over what is queued, waits for it to be written, ends the worker (idempotent). */
  close(): Promise<void>;
}

/**
 * Starts the worker on `path` (created with the table when missing), moves the rows of the
 * store's main database file over (then deletes them there when any moved), and opens the read
 * connection; `useRequestLogFile` (./request-log.ts) then makes it the store's request log.
 * Rejects when the worker cannot start; throws when `store` is not a SQLite store.
 */
export async function openRequestLogFile(path: string, store: Store): Promise<RequestLogFile> {
  const { ctx } = sqliteStoreOf(store);
  const mainPath = ctx.client.filename;
  const worker = startInlineWorker(WORKER_SOURCE);
  let moved: number;
  try {
    moved = (await worker.request<{ type: string; moved: number }>({ type: "start", path, schema: SCHEMA, mainPath }))
      .moved;
  } catch (err) {
    await worker.stop();
    throw new Error(`request log worker: ${(err as Error).message}`);
  }
  if (moved > 0) ctx.client.run("DELETE FROM request_logs");
  const readConn = new Database(path, { readonly: true });
  const reader = drizzle({ client: readConn, schema }) as unknown as Db;

  let buffer: LogRow[] = [];
  let scheduled = false;
  let closing: Promise<void> | null = null;
  /** The queued rows as one message; with `awaited`, a request whose reply says they are written. */
  const handOver = (awaited = false): Promise<unknown> | undefined => {
    scheduled = false;
    // One JSON string: structured-cloning an array of row arrays cost the request thread ~5 us a row.
    const message = { type: "rows", rows: JSON.stringify(buffer) };
    buffer = [];
    if (awaited) return worker.request(message);
    if (message.rows !== "[]") worker.post(message);
  };
  return {
    push(row) {
      if (closing) return; // shutting down: the worker is gone or going
      buffer.push(row);
      // One message per HAND_OVER_MS (or per HAND_OVER_ROWS): a message costs the request
      // thread far more than the rows in it, so per-turn messages made reads slower.
      if (buffer.length >= HAND_OVER_ROWS) void handOver();
      else if (!scheduled) {
        scheduled = true;
        setTimeout(handOver, HAND_OVER_MS);
      }
    },
    async flushed() {
      if (closing) return closing;
      await handOver(true);
    },
    async prune(beforeMs) {
      if (closing) return 0;
      await handOver(true);
      return (await worker.request<{ type: string; deleted: number }>({ type: "prune", before: beforeMs })).deleted;
    },
    reader,
    close() {
      closing ??= (async () => {
        await Promise.resolve(handOver(true)).catch(() => {});
        readConn.close(); // first: the worker's close then checkpoints and removes the WAL file
        await worker.stop();
      })();
      return closing;
    },
  };
}
