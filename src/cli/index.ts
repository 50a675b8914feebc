/**
 * The one command table of `cofre` and its dispatcher (extensions.md "Command line"); src/main.ts
 * only calls `runCli`. Exit codes: 0 done, 1 failure, 2 usage or configuration error (an unknown
 * command prints the usage on stderr, exit 2); -1 keeps the process running (a server).
 */
import { ConfigError } from "../config";
import { NewerDatabaseError } from "../store/port/schema-version";
import { ledgerCommand } from "./ledger";
import { initCommand } from "./init";
import { importSqliteCommand } from "./import-sqlite";
import { migrateCommand } from "./migrate";
import { serve } from "./serve";

/** One command of `cofre`. */
export interface Command {
  name: string;
  /** Its usage line in `cofre --help`: the name and its arguments. */
  usage: string;
  /** What it does, in `cofre --help`: one or more lines. */
  summary: string[];
  /** What its exit codes mean (documentation; the dispatcher adds 2 for a configuration error, 1 for a throw). */
  exits: string;
  /** Runs it on the arguments after its name: the exit code, or -1 while it keeps serving. */
  run(args: string[]): Promise<number> | number;
}

/** Every command, in the order `cofre --help` lists them; the first is the default. */
export const COMMANDS: readonly Command[] = [
  {
    name: "serve",
    usage: "serve",
    summary: ["migrate, listen and run the workers (default)"],
    exits: "-1 serving (0 after SIGINT/SIGTERM); 1 the port is taken or the start failed",
    run: async () => {
      await serve();
      return -1;
    },
  },
  {
    name: "migrate",
    usage: "migrate [--dry-run]",
    summary: ["apply pending migrations and exit (--dry-run: list them, change nothing)"],
    exits: "0 done; 2 bad arguments or a database of a newer Cofre",
    run: migrateCommand,
  },
  {
    name: "init",
    usage: "init --email E --password P [--account-name N] [--test-key]",
    summary: ["create an account and its OWNER user"],
    exits: "0 created (or the same OWNER again); 1 the email exists with another password; 2 bad arguments",
    run: initCommand,
  },
  {
    name: "ledger",
    usage: "ledger verify",
    summary: ["recompute every balance from the ledger journal"],
    exits: "0 every balance agrees; 1 any disagrees; 2 not `verify`",
    run: ledgerCommand,
  },
  {
    name: "backup",
    usage: "backup --to FILE [--include-secrets]",
    summary: [
      "a consistent snapshot of a running or stopped SQLite instance (database,",
      "request log, stored files, manifest of checksums) in one tar archive",
    ],
    exits: "0 written; 1 it cannot be done; 2 bad arguments or a database of a newer Cofre",
    // Loaded on use: `serve` does not load the tar library.
    run: async (args) => (await import("./backup")).backupCommand(args),
  },
  {
    name: "restore",
    usage: "restore FILE --data-dir DIR",
    summary: ["restore a backup into an empty DIR, check it, then verify the ledger"],
    exits: "0 restored and verified; 1 it cannot be done; 2 bad arguments or a newer Cofre's backup",
    run: async (args) => (await import("./backup")).restoreCommand(args),
  },
  {
    name: "import-sqlite",
    usage: "import-sqlite DIR",
    summary: [
      "copy the SQLite database of data folder DIR into the empty",
      "PostgreSQL database of COFRE_DATABASE_URL",
    ],
    exits: "0 copied; 1 the copy failed; 2 bad arguments or no COFRE_DATABASE_URL",
    run: importSqliteCommand,
  },
  {
    name: "psp-sim",
    usage: "psp-sim init DIR | psp-sim [--dir DIR] [--port N] [--exchange-log F]",
    summary: ["a BCB API Pix v2 simulator over mTLS (cofre psp-sim --help)"],
    exits: "-1 serving; 0 init or --help; 1 the start failed; 2 bad arguments or no init",
    // Loaded on use: `serve` never pays for the simulator (and its X.509 library).
    run: async (args) => (await import("../psp-sim/cli")).pspSimCommand(args),
  },
  {
    name: "stripe-sim",
    usage: "stripe-sim init DIR | stripe-sim [--dir DIR] [--port N]",
    summary: ["a Stripe simulator: Checkout, boletos, refunds, disputes, events (cofre stripe-sim --help)"],
    exits: "-1 serving; 0 init or --help; 1 the start failed; 2 bad arguments",
    run: async (args) => (await import("../stripe-sim/cli")).stripeSimCommand(args),
  },
  // Clients of a running Cofre's API (extensions.md "Events API and `cofre listen`").
  {
    name: "listen",
    usage: "listen --forward-to URL [--events a,b] [--api-key K] [--api-url U]",
    summary: ["forward the events of a running Cofre to URL, signed (cofre listen --help)"],
    exits: "0 stopped or --help; 1 the API refused the key; 2 bad arguments",
    run: async (args) => (await import("./listen")).listenCommand(args),
  },
  {
    name: "trigger",
    usage: "trigger EVENT [--api-key K] [--api-url U]",
    summary: ["make EVENT (charge.paid, payout.created, ...) happen in the sandbox"],
    exits: "0 done or --help; 1 the API refused; 2 bad arguments or an unknown event",
    run: async (args) => (await import("./trigger")).triggerCommand(args),
  },
];

/** Names that print the usage on stdout, exit 0 (not listed in it). */
const HELP = new Set(["help", "--help", "-h"]);

/** Column where summaries start; a longer usage line puts its summary on the next line. */
const SUMMARY_COLUMN = 24;

/** `cofre --help`, built from COMMANDS. */
export const USAGE = `usage: cofre <command>

commands:
${COMMANDS.map(usageEntry).join("")}
configuration comes from the environment (PORT, HOST, COFRE_DATA_DIR, ...; see README.md)
`;

function usageEntry(c: Command): string {
  const head = `  ${c.usage}`;
  const indent = " ".repeat(SUMMARY_COLUMN);
  const [first, ...rest] = c.summary;
  const lines = head.length + 2 <= SUMMARY_COLUMN ? [head.padEnd(SUMMARY_COLUMN) + first] : [head, indent + first];
  for (const l of rest) lines.push(indent + l);
  return `${lines.join("\n")}\n`;
}

const byName = new Map(COMMANDS.map((c) => [c.name, c]));

/**
 * Runs the command `argv` names (none: the first, `serve`) and returns its exit code, or -1 when
 * the process must keep running. Configuration errors and a database of a newer Cofre: message on
 * stderr, 2; anything else thrown: message on stderr, 1.
 */
export async function runCli(argv: string[]): Promise<number> {
  const [name = COMMANDS[0]!.name, ...rest] = argv;
  try {
    if (HELP.has(name)) {
      process.stdout.write(USAGE);
      return 0;
    }
    const command = byName.get(name);
    if (!command) {
      process.stderr.write(`cofre: unknown command "${name}"\n\n${USAGE}`);
      return 2;
    }
    return await command.run(rest);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof NewerDatabaseError) {
      process.stderr.write(`cofre: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`cofre: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
