/**
 * Background WAL checkpointer for `serve`: a worker thread with its own SQLite connection copies
 * committed WAL frames into the database file (`PRAGMA wal_checkpoint(PASSIVE)`) every
 * `intervalMs`, so the request thread never does it.
 *
 * Why: with SQLite's default auto-checkpoint, the COMMIT that pushes the WAL past 1,000 pages
 * copies them all into the database file and fsyncs both files, on the thread that serves HTTP
 * (measured on the 2-core box: ~15% of a charge creation's time, and the p99 spikes). A PASSIVE
 * checkpoint never takes the write lock and never waits for the writer, and it changes no
 * content, so the request thread's connection keeps its page cache.
 *
 * The WAL file only starts over when a write transaction begins while every frame is already
 * in the database file. Under sustained load the request thread's next transaction always
 * begins right after its own COMMIT, before the worker caught up, so the WAL would grow without
 * bound (measured: 465 MB in 10 s of charge creation). So once the WAL passes `restartFrames`
 * and the worker has copied nearly all of it, the request thread runs one PASSIVE checkpoint
 * itself between two transactions (copying only the last few milliseconds of frames), and its
 * next transaction starts the WAL over.
 *
 * Durability is unchanged: a commit is durable once in the WAL (WAL + synchronous=NORMAL),
 * whoever checkpoints it later. If the worker fails, the request thread's connection gets
 * auto-checkpointing back (`onFailure`).
 */
import type { Database } from "bun:sqlite";
import { startInlineWorker } from "../../lib/inline-worker";

/** The worker's code (src/lib/inline-worker.ts protocol: replies echo the request's `id`). */
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let db = null;
let timer = null;
let askedAt = 0;
function checkpoint() {
  const r = db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
  return { busy: r.busy, log: r.log, checkpointed: r.checkpointed };
}
self.onmessage = (e) => {
  const m = e.data;
  try {
    if (m.type === "start") {
      db = new Database(m.path);
      db.exec("PRAGMA busy_timeout = 0");
      db.exec("PRAGMA synchronous = NORMAL");
      timer = setInterval(() => {
        try {
          const r = checkpoint();
          // Ask once, until the request thread says it checkpointed (or 500 ms passed): a stale
          // request would cost the request thread a checkpoint for nothing.
          if (r.log < m.restartFrames) askedAt = 0;
          else if (r.checkpointed >= r.log - m.restartFrames / 4 && Date.now() - askedAt > 500) {
            askedAt = Date.now();
            postMessage({ type: "restart", log: r.log });
          }
        } catch (err) { postMessage({ type: "error", message: String(err) }); }
      }, m.intervalMs);
      postMessage({ type: "started", id: m.id });
    } else if (m.type === "restarted") {
      askedAt = 0;
    } else if (m.type === "checkpoint") {
      postMessage({ type: "checkpointed", id: m.id, result: checkpoint() });
    } else if (m.type === "stop") {
      if (timer) clearInterval(timer);
      try { checkpoint(); } catch {}
      db?.close();
      postMessage({ type: "stopped" });
    }
  } catch (err) {
    postMessage({ type: "error", id: m.id, message: String(err) });
  }
};
`;

/** Frames in the WAL (`log`) and how many of them are in the database file (`checkpointed`). */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface Checkpointer {
  /** Runs one checkpoint now, in the worker, and returns SQLite's counts. */
  checkpointNow(): Promise<CheckpointResult>;
  /** Checkpoints once more and ends the worker. */
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  /** Milliseconds between checkpoints (default 10). */
  intervalMs?: number;
  /** WAL size, in frames (pages), past which the WAL is made to start over (default 16,384: 64 MB of 4 KiB pages). */
  restartFrames?: number;
  /** Told when the worker fails; auto-checkpointing is already back on the request connection. */
  onFailure?: (message: string) => void;
}

/**
 * Starts the checkpointer for the WAL database `client` at `path` (a file, not ":memory:") and
 * turns auto-checkpointing off on `client` once the worker runs. Rejects (with auto-checkpoint
 * left on) when the worker cannot start.
 */
export async function startCheckpointer(
  client: Database,
  path: string,
  opts: CheckpointerOptions = {},
): Promise<Checkpointer> {
  let failed = false;
  let restarting = false;
  const fail = (message: string) => {
    if (failed) return;
    failed = true;
    client.exec("PRAGMA wal_autocheckpoint = 1000");
    opts.onFailure?.(message);
  };
  /** Between two transactions of the request thread: its own checkpoint, so the next write restarts the WAL. */
  const restartSoon = () => {
    if (client.inTransaction) return void setImmediate(restartSoon);
    restarting = false;
    try {
      client.query("PRAGMA wal_checkpoint(PASSIVE)").get();
    } catch {
      // Busy or closed: the worker asks again.
    }
    worker.post({ type: "restarted" });
  };
  const worker = startInlineWorker(WORKER_SOURCE, {
    onMessage: (m) => {
      if (m.type !== "restart" || restarting || failed) return;
      restarting = true;
      setImmediate(restartSoon);
    },
    onError: fail,
  });
  try {
    await worker.request({
      type: "start",
      path,
      intervalMs: opts.intervalMs ?? 10,
      restartFrames: opts.restartFrames ?? 16_384,
    });
  } catch (err) {
    await worker.stop();
    throw err;
  }
  client.exec("PRAGMA wal_autocheckpoint = 0");
  return {
    async checkpointNow() {
      return (await worker.request<{ type: string; result: CheckpointResult }>({ type: "checkpoint" })).result;
    },
    async stop() {
      if (!failed) client.exec("PRAGMA wal_autocheckpoint = 1000");
      await worker.stop();
    },
  };
}
