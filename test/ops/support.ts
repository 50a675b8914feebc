/** Helpers of the operations tests (issue 28: backup, restore, safe starts): the CLI as a child process. */
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..", "..");

/** What a finished `cofre` child process left. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `bun src/main.ts ...args` in the repository with `env` (plus PATH and HOME); waits for its exit. */
export async function cofre(args: string[], env: Record<string, string>): Promise<CliResult> {
  const proc = Bun.spawn(["bun", "src/main.ts", ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "warn", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** The dashboard token of the e2e owner that test/support/serve.ts creates. */
export async function ownerToken(base: string): Promise<string> {
  const r = await fetch(`${base}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "e2e@example.com", password: "a long passphrase" }),
  });
  if (r.status !== 200) throw new Error(`login: ${r.status}`);
  return ((await r.json()) as { access_token: string }).access_token;
}
