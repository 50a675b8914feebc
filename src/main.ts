#!/usr/bin/env bun
/**
 * CLI entry and composition root (extensions.md "Command line"): `cofre serve | migrate | init |
 * ledger verify`. Exit codes: 0 done, 1 failure, 2 usage or configuration error.
 */
import { createDeps } from "./deps";
import { createApp } from "./app";
import { startServeStorage, type ServeStorage } from "./store/sqlite/serve";
import { pgStoreOf } from "./store/pg";
import type { Deps } from "./deps";
import { ConfigError, loadConfig, type Config } from "./config";
import { NewerDatabaseError } from "./ops/schema-version";
import { backupBeforeMigrating, startBackupSchedule } from "./ops/schedule";
import { assertPortFree, PortTakenError } from "./ops/port";
import { createLogger } from "./lib/logger";
import { pendingMigrations, refuseNewerDatabase } from "./ops/pending";
import { commands } from "./cli";

export const USAGE = `usage: cofre <command>

commands:
  serve                 migrate, listen and run the workers (default)
  migrate [--dry-run]   apply pending migrations and exit (--dry-run: list them, change nothing)
  init --email E --password P [--account-name N] [--test-key]
                        create an account and its OWNER user
  ledger verify         recompute every balance from the ledger journal
  backup --to FILE [--include-secrets]
                        a consistent snapshot of a running or stopped SQLite instance (database,
                        request log, stored files, manifest of checksums) in one tar archive
  restore FILE --data-dir DIR
                        restore a backup into an empty DIR, check it, then verify the ledger
  import-sqlite DIR     copy the SQLite database of data folder DIR into the empty
                        PostgreSQL database of COFRE_DATABASE_URL
  psp-sim init DIR | psp-sim [--dir DIR] [--port N] [--exchange-log F]
                        a BCB API Pix v2 simulator over mTLS (cofre psp-sim --help)
  stripe-sim init DIR | stripe-sim [--dir DIR] [--port N]
                        a Stripe simulator: Checkout, boletos, refunds, disputes, events (cofre stripe-sim --help)
  listen --forward-to URL [--events a,b] [--api-key K] [--api-url U]
                        forward the events of a running Cofre to URL, signed (cofre listen --help)
  trigger EVENT [--api-key K] [--api-url U]
                        make EVENT (charge.paid, payout.created, ...) happen in the sandbox

configuration comes from the environment (PORT, HOST, COFRE_DATA_DIR, ...; see README.md)
`;

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
  for (const line of (await commands.startupNotes?.(deps)) ?? []) deps.logger.info(line);
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

/**
 * `cofre migrate --dry-run`: prints one JSON line `{dry_run: true, database, pending: [tags]}`
 * and changes nothing (a missing SQLite file is not created); a database of a newer Cofre: exit 2.
 */
async function migrateDryRun(args: string[]): Promise<number> {
  if (args.length !== 1) {
    process.stderr.write("usage: cofre migrate [--dry-run]\n");
    return 2;
  }
  const config: Config = loadConfig();
  const state = await pendingMigrations(config);
  if (state.unknown.length) throw new NewerDatabaseError(state.unknown);
  console.log(
    JSON.stringify({ dry_run: true, database: config.databaseUrl ? "postgres" : "sqlite", pending: state.pending }),
  );
  return 0;
}

/** Runs one command; returns the exit code, or -1 when the process must keep running (serve). */
export async function main(argv: string[]): Promise<number> {
  const [cmd = "serve", ...rest] = argv;
  try {
    switch (cmd) {
      case "serve":
        await serve();
        return -1;
      case "migrate": {
        if (rest.includes("--dry-run")) return await migrateDryRun(rest);
        if (rest.length) {
          process.stderr.write("usage: cofre migrate [--dry-run]\n");
          return 2;
        }
        const early = loadConfig();
        await refuseNewerDatabase(early);
        await backupBeforeMigrating(early, createLogger(early.logLevel, process.stderr as never));
        const deps = createDeps();
        if (deps.store.kind === "postgres") await pgStoreOf(deps.store).started;
        await deps.store.close();
        console.log(
          JSON.stringify({
            migrated: true,
            database: deps.store.kind,
            ...(deps.store.kind === "sqlite" ? { data_dir: deps.config.dataDir } : {}),
          }),
        );
        return 0;
      }
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(USAGE);
        return 0;
      default: {
        const run = commands.table[cmd];
        if (!run) {
          process.stderr.write(`cofre: unknown command "${cmd}"\n\n${USAGE}`);
          return 2;
        }
        return await run(rest);
      }
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof NewerDatabaseError) {
      process.stderr.write(`cofre: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`cofre: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exit(code);
}
