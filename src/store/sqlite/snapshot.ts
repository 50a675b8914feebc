/**
 * Consistent copies of live SQLite files for `cofre backup` (src/ops/backup.ts). Each copy is
 * SQLite's own `VACUUM INTO` over a read-only connection: one read transaction, so the copy is
 * the database as of one commit, taken while `serve` keeps writing (WAL readers never block the
 * writer), never a file copy of a live WAL database. It runs on a worker thread so a backup taken
 * by `serve` on its schedule does not stall requests.
 */
import { startInlineWorker } from "../../lib/inline-worker";

const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
self.onmessage = (e) => {
  const m = e.data;
  try {
    if (m.type === "snapshot") {
      const db = new Database(m.from, { readonly: true });
      try {
        db.exec("PRAGMA busy_timeout = 5000");
        db.run("VACUUM INTO ?", [m.to]);
      } finally {
        db.close();
      }
      postMessage({ type: "done", id: m.id });
    } else if (m.type === "stop") {
      postMessage({ type: "stopped" });
    }
  } catch (err) {
    postMessage({ type: "error", id: m.id, message: String(err && err.message || err) });
  }
};
`;

/**
 * Writes a consistent copy of the SQLite database file `from` to `to` (which must not exist),
 * `VACUUM INTO` on a worker thread. Rejects with SQLite's message when `from` cannot be read.
 */
export async function snapshotSqliteFile(from: string, to: string): Promise<void> {
  const worker = startInlineWorker(WORKER_SOURCE);
  try {
    await worker.request({ type: "snapshot", from, to });
  } finally {
    await worker.stop();
  }
}
