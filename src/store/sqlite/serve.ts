/**
 * What `serve` adds to the SQLite store (src/cli/serve.ts): group commit (src/store/sqlite/group-commit.ts), WAL
 * checkpoints on a worker thread (src/store/sqlite/checkpointer.ts) and the request log in its own file
 * written by a worker thread (./request-log-file.ts). One-shot commands and tests use none.
 */
import { join, dirname } from "node:path";
import { startCheckpointer, type Checkpointer } from "./checkpointer";
import { enableGroupCommit, flushGroupCommit } from "./group-commit";
import type { Logger } from "../../lib/logger";
import type { Store } from "../port";
import { sqliteStoreOf } from "./of";
import { openRequestLogFile, type RequestLogFile } from "./request-log-file";
import { useRequestLogFile } from "./request-log";

export interface ServeStorageOptions {
  /** One commit per event-loop turn (COFRE_GROUP_COMMIT, default on). */
  groupCommit: boolean;
  /** WAL checkpoints on a worker thread (COFRE_BACKGROUND_CHECKPOINT, default on; on-disk databases only). */
  backgroundCheckpoint: boolean;
  /** The request log in `<dataDir>/request-log.db` (COFRE_REQUEST_LOG_FILE, default on; on-disk databases only). */
  requestLogFile: boolean;
  logger: Pick<Logger, "warn" | "error">;
  /** Hears a failed group COMMIT (the turn's writes are lost: `serve` stops, as a crash would). */
  onCommitFailure: (err: unknown) => void;
}

/** The running extras; `stop` makes everything durable and closes the store. */
export interface ServeStorage {
  /** Writes the queued request log, commits the open group, stops the workers, closes the store. */
  stop(): Promise<void>;
}

/**
 * Turns on what `opts` asks for. A worker that cannot start is logged (warn) and done without:
 * SQLite then checkpoints on commit, and the request log stays in the main database.
 * Throws when `store` is not a SQLite store.
 */
export async function startServeStorage(store: Store, opts: ServeStorageOptions): Promise<ServeStorage> {
  const sqlite = sqliteStoreOf(store);
  const client = sqlite.ctx.client;
  const path = client.filename;
  const onDisk = path !== "" && path !== ":memory:";
  if (opts.groupCommit) enableGroupCommit(client, opts.onCommitFailure);
  const checkpointer: Checkpointer | null =
    onDisk && opts.backgroundCheckpoint
      ? await startCheckpointer(client, path, {
          onFailure: (message) =>
            opts.logger.error({ err: message }, "background checkpointer failed; SQLite checkpoints on commit again"),
        }).catch((err) => {
          opts.logger.warn({ err }, "background checkpointer unavailable; SQLite checkpoints on commit");
          return null;
        })
      : null;
  const requestLog: RequestLogFile | null =
    onDisk && opts.requestLogFile
      ? await openRequestLogFile(join(dirname(path), "request-log.db"), store).catch((err) => {
          opts.logger.warn({ err }, "request log file unavailable; the request log stays in the main database");
          return null;
        })
      : null;
  if (requestLog) useRequestLogFile(store, requestLog);
  return {
    async stop() {
      await requestLog?.close();
      flushGroupCommit(client);
      await checkpointer?.stop();
      await sqlite.close();
    },
  };
}
