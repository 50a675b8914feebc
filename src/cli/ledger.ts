/**
 * `cofre ledger verify`: recomputes every balance from the journal (verifyLedger) and prints the
 * JSON report `{ok, checked, mismatches[]}` on stdout. Exit 0 when everything agrees, 1 on any
 * disagreement, 2 on an unknown sub-command.
 */
import { createDeps } from "../deps";
import { createLogger } from "../lib/logger";
import { verifyLedger } from "../domain/ledger/verify";

export async function ledgerCommand(args: string[]): Promise<number> {
  const [sub] = args;
  if (sub !== "verify") {
    process.stderr.write("usage: cofre ledger verify\n");
    return 2;
  }
  const deps = createDeps({ logger: createLogger("warn", process.stderr as never) });
  try {
    const report = await verifyLedger(deps.store.read);
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return report.ok ? 0 : 1;
  } finally {
    await deps.store.close();
  }
}
