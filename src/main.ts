#!/usr/bin/env bun
/**
 * The `cofre` executable's entry (extensions.md "Command line"): runs the command of the command
 * line through the one dispatcher, src/cli/index.ts (its table lists every command, its usage
 * and exit codes), and exits with its code unless the command keeps serving.
 */
import { runCli } from "./cli";

if (import.meta.main) {
  const code = await runCli(process.argv.slice(2));
  if (code >= 0) process.exit(code);
}
