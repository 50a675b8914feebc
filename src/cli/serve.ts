/** `cofre serve`: migrate, listen and run the in-process workers (extensions.md "Command line"). */
import { createDeps } from "../deps";
import { createApp } from "../app";
import { startServeStorage, type ServeStorage } from "../store/sqlite/serve";
import { pgStoreOf } from "../store/pg";
import type { Deps } from "../deps";
import { loadConfig } from "../config";
import { backupBeforeMigrating, startBackupSchedule } from "../ops/schedule";
import { assertPortFree, PortTakenError } from "../ops/port";
import { createLogger } from "../lib/logger";
import { refuseNewerDatabase } from "../ops/pending";
import { initStartupNotes } from "./init";

/**
 * Opens the database (applying migrations), starts the HTTP server and the job loop; resolves
 * once listening and logs `{port, host, data_dir}` with the real port (also when PORT=0).
 * Returns a function that stops everything.
 */
export async function serve(): Promise<() => Promise<void>> {
  // Before the database is touched: a second `serve` on a taken port must change nothing.
  const early = loadConfig();
  await assertPortFree(early.host, early.port);
  await refuseNewerDatabase(early);
  await backupBeforeMigrating(early, createLogger(early.logLevel));
  const deps = createDeps();
  const storage = await startStorage(deps);
  // Before the first request: the job groups' startup scheduling and, on PostgreSQL with the test
  // clock, the shared clock offset (a restarted instance must not answer with its own clock).
  await deps.startup;
  const app = createApp(deps);
  // Elysia turns SO_REUSEPORT on by default: a second process would share the port silently.
  try {
    app.listen({ port: deps.config.port, hostname: deps.config.host, reusePort: false });
  } catch (err) {
    if ((err as { code?: string }).code === "EADDRINUSE") throw new PortTakenError(deps.config.host, deps.config.port);
    throw err;
  }
  const port = app.server!.port;
  if (!process.env.COFRE_PUBLIC_URL && deps.config.port === 0) {
    deps.config.publicUrl = `http://localhost:${port}`;
    if (!process.env.COFRE_CHECKOUT_URL_BASE) deps.config.checkoutUrlBase = `${deps.config.publicUrl}/c`;
  }
  deps.jobs.start();
  const backups = startBackupSchedule(deps.config, deps.logger);
  deps.logger.info(
    { port, host: deps.config.host, data_dir: deps.config.dataDir, database: deps.store.kind },
    `cofre listening on port ${port}`,
  );
  for (const line of await initStartupNotes(deps)) deps.logger.info(line);
  process.on("unhandledRejection", (err) => deps.logger.error({ err }, "unhandled rejection"));
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await backups?.stop();
      await app.stop();
      await deps.jobs.stop();
      await storage.stop();
    })());
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.once(sig, () => {
      deps.logger.info({ signal: sig }, "cofre stopping");
      void stop().then(() => process.exit(0));
    });
  return stop;
}

/**
 * Starts what `serve` adds to the store. PostgreSQL: waits for the store's start (migrations,
 * caches, notices; a database that cannot be reached stops `serve` here). SQLite
 * (src/store/sqlite/serve.ts), each on unless its variable is "0": one commit per event-loop
 * turn, WAL checkpoints and the request log on worker threads.
 */
async function startStorage(deps: Deps): Promise<ServeStorage> {
  if (deps.store.kind === "postgres") {
    const pg = pgStoreOf(deps.store);
    await pg.started;
    return { stop: () => pg.close() };
  }
  return startServeStorage(deps.store, {
    groupCommit: process.env.COFRE_GROUP_COMMIT !== "0",
    backgroundCheckpoint: process.env.COFRE_BACKGROUND_CHECKPOINT !== "0",
    requestLogFile: process.env.COFRE_REQUEST_LOG_FILE !== "0",
    logger: deps.logger,
    onCommitFailure: (err) => {
      // The turn's writes are lost and in-memory state may assume them: stop, as a crash would.
      deps.logger.fatal({ err }, "database commit failed; stopping");
      setTimeout(() => process.exit(1), 100);
    },
  });
}
