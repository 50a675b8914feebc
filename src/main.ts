#!/usr/bin/env bun
/** CLI entry (extensions.md "Command line"): `cofre serve | migrate | init | ledger verify`. */
import { createDeps } from "./deps";
import { createApp } from "./app";
import { ConfigError } from "./config";
import { commands } from "./cli";

const USAGE = `usage: cofre <command>

commands:
  serve                 migrate, listen and run the workers (default)
  migrate               apply pending migrations and exit
  init --email E --password P [--account-name N]
                        create an account and its OWNER user
  ledger verify         recompute every balance from the ledger journal
`;

/** Starts the HTTP server and the job loop; resolves once listening. Returns a stop function. */
export async function serve(): Promise<() => Promise<void>> {
  const deps = createDeps();
  const app = createApp(deps);
  app.listen({ port: deps.config.port, hostname: deps.config.host });
  const port = app.server!.port;
  if (!process.env.COFRE_PUBLIC_URL && deps.config.port === 0) {
    deps.config.publicUrl = `http://localhost:${port}`;
    if (!process.env.COFRE_CHECKOUT_URL_BASE) deps.config.checkoutUrlBase = `${deps.config.publicUrl}/c`;
  }
  deps.jobs.start();
  deps.logger.info({ port, host: deps.config.host, data_dir: deps.config.dataDir }, `cofre listening on port ${port}`);
  for (const line of commands.startupNotes?.(deps) ?? []) deps.logger.info(line);
  const stop = async () => {
    await app.stop();
    await deps.jobs.stop();
    deps.db.$client.close();
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.once(sig, () => {
      void stop().then(() => process.exit(0));
    });
  return stop;
}

async function main(argv: string[]): Promise<number> {
  const [cmd = "serve", ...rest] = argv;
  try {
    switch (cmd) {
      case "serve":
        await serve();
        return -1; // keep running
      case "migrate": {
        const deps = createDeps();
        deps.db.$client.close();
        console.log(JSON.stringify({ migrated: true }));
        return 0;
      }
      default: {
        const run = commands.table[cmd];
        if (!run) {
          process.stderr.write(USAGE);
          return 2;
        }
        return await run(rest);
      }
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`cofre: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exit(code);
}
