/**
 * Sub-commands besides serve/migrate: `init` (accounts issue), `ledger verify` (ledger issue) and
 * `import-sqlite` (PostgreSQL issue).
 * Each returns the process exit code.
 */
import type { Deps } from "../deps";
import { ledgerCommand } from "./ledger";
import { initCommand, initStartupNotes } from "./init";
import { importSqliteCommand } from "./import-sqlite";

export type Command = (args: string[]) => Promise<number> | number;

export const commands: {
  table: Record<string, Command>;
  /** Lines logged after `serve` starts (e.g. how to run `init` on an empty database). */
  startupNotes?: (deps: Deps) => string[] | Promise<string[]>;
} = {
  table: {
    ledger: ledgerCommand,
    init: initCommand,
    "import-sqlite": importSqliteCommand,
    // Loaded on use: `serve` never pays for the simulator (and its X.509 library).
    "psp-sim": async (args) => (await import("../psp-sim/cli")).pspSimCommand(args),
    "stripe-sim": async (args) => (await import("../stripe-sim/cli")).stripeSimCommand(args),
    // Loaded on use: `serve` does not load the tar library.
    backup: async (args) => (await import("./backup")).backupCommand(args),
    restore: async (args) => (await import("./backup")).restoreCommand(args),
    // Clients of a running Cofre's API (extensions.md "Events API and `cofre listen`").
    listen: async (args) => (await import("./listen")).listenCommand(args),
    trigger: async (args) => (await import("./trigger")).triggerCommand(args),
  },
  startupNotes: initStartupNotes,
};
