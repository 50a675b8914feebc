/**
 * `bun run check:bcb-contract <openapi.yaml> [exchange-log files...]` (issue 14 §5): validates the
 * API Pix exchanges of psp-sim exchange logs against the official BCB OpenAPI (with the named
 * corrections of scripts/bcb-contract/spec.ts), and Efí's send routes and send callbacks against
 * the schemas of scripts/bcb-contract/efi.ts. Without log files it first runs the live
 * scenarios (scripts/bcb-contract/scenarios.ts) and checks their log; `--only a,b` picks scenarios.
 * Exit codes: 0 no violation, 1 a violation, a failed scenario or nothing checked, 2 usage or missing document.
 */
import { parseArgs } from "node:util";
import { ContractChecker, formatReport, readExchangeLog } from "./bcb-contract/check";
import { runScenarios, SCENARIOS, type ScenarioName } from "./bcb-contract/scenarios";
import { loadSpec, SpecMissingError } from "./bcb-contract/spec";
import { EfiChecker, formatEfiReport, isEfiExchange } from "./bcb-contract/efi";

const USAGE =
  "usage: bun run check:bcb-contract <path-to-openapi.yaml> [exchange-log files...] [--only scenario,...] [--keep]\n";

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { only: { type: "string" }, keep: { type: "boolean" } } });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const [specFile, ...logs] = parsed.positionals;
  if (!specFile) {
    process.stderr.write(`check:bcb-contract: the official OpenAPI file is required\n${USAGE}`);
    return 2;
  }
  let spec;
  try {
    spec = loadSpec(specFile);
  } catch (err) {
    if (err instanceof SpecMissingError) {
      process.stderr.write(`check:bcb-contract: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const checker = new ContractChecker(spec);
  let failedScenarios = 0;
  let cleanup = () => {};
  if (logs.length === 0) {
    const only = parsed.values.only?.split(",").map((s) => s.trim()) ?? [...SCENARIOS];
    const unknown = only.filter((s) => !(SCENARIOS as readonly string[]).includes(s));
    if (unknown.length) {
      process.stderr.write(
        `check:bcb-contract: unknown scenario(s) ${unknown.join(", ")}; known: ${SCENARIOS.join(", ")}\n`,
      );
      return 2;
    }
    const run = await runScenarios(only as ScenarioName[], (line) => process.stdout.write(`${line}\n`));
    for (const r of run.results) {
      process.stdout.write(
        `  ${r.outcome === "ok" ? "ok" : r.outcome === "skipped" ? "SKIPPED" : "FAILED"}  ${r.name}${r.note ? `: ${r.note}` : ""}\n`,
      );
      if (r.outcome === "failed") failedScenarios++;
    }
    logs.push(run.exchangeLog);
    if (!parsed.values.keep) cleanup = run.cleanup;
    else process.stdout.write(`exchange log kept at ${run.exchangeLog}\n`);
  }
  const all = logs.flatMap(readExchangeLog);
  const report = checker.check(all.filter((x) => !isEfiExchange(x.exchange)));
  process.stdout.write(`${formatReport(spec, report)}\n`);
  // Efí's own routes and send callbacks: against the schemas written from the research notes.
  const efi = new EfiChecker().check(all.filter((x) => isEfiExchange(x.exchange)));
  if (efi.exchanges > 0) process.stdout.write(`\n${formatEfiReport(efi)}\n`);
  cleanup();
  if (failedScenarios) process.stdout.write(`${failedScenarios} scenario(s) failed\n`);
  const checked = report.operations.reduce((n, o) => n + o.requests, 0);
  if (checked === 0) process.stdout.write("nothing was checked: the logs hold no API Pix exchange\n");
  return report.violations.length || efi.violations.length || failedScenarios || checked === 0 ? 1 : 0;
}

process.exit(await main());
