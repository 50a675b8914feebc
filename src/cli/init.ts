/**
 * `cofre init --email E --password P [--account-name N] [--test-key]` (extensions.md "Command
 * line"): creates an account and its OWNER user, prints one JSON line
 * `{"account_id","user_id","email"}` and exits 0. `--test-key` also issues a sandbox API key in the
 * same transaction and adds its cleartext (shown this once) as `"test_api_key"`: the README's
 * first charge needs no login. Run again with the e-mail and password of an existing OWNER: the
 * same line for that account (a new test key with `--test-key`), exit 0 (extensions.md "Merchant
 * profile and a repeatable first run"). An email that exists with another password: message on
 * stderr, exit 1, nothing changed. Bad arguments: exit 2.
 */
import { createDeps, type Deps } from "../deps";
import { countAccounts, createAccountWithOwner, reopenAccountWithOwner } from "../domain/accounts/service";
import { DomainError } from "../domain/errors";

const USAGE = "usage: cofre init --email E --password P [--account-name N] [--test-key]\n";
const FLAGS = new Set(["email", "password", "account-name"]);
/** Flags that take no value. */
const SWITCHES = new Set(["test-key"]);

/** Parses `--flag value`, `--flag=value` and `--test-key`; returns null on an unknown flag or a missing value. */
export function parseInitArgs(
  args: string[],
): { email: string; password: string; accountName?: string; testKey?: boolean } | null {
  const out: Record<string, string> = {};
  let testKey = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) return null;
    if (SWITCHES.has(a.slice(2))) {
      if (testKey) return null;
      testKey = true;
      continue;
    }
    const eq = a.indexOf("=");
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    if (!FLAGS.has(name) || name in out) return null;
    let value: string | undefined;
    if (eq >= 0) value = a.slice(eq + 1);
    else value = args[++i];
    if (value === undefined) return null;
    out[name] = value;
  }
  if (!out.email || !out.password) return null;
  return {
    email: out.email,
    password: out.password,
    accountName: out["account-name"],
    ...(testKey ? { testKey } : {}),
  };
}

export async function initCommand(args: string[]): Promise<number> {
  const input = parseInitArgs(args);
  if (!input) {
    process.stderr.write(USAGE);
    return 2;
  }
  const deps = createDeps();
  try {
    const created = await createAccountWithOwner(deps, input).catch((err: unknown) => {
      // Run again with the same e-mail and password: the same line (and a new test key), exit 0.
      if (err instanceof DomainError && err.code === "email_taken") return reopenAccountWithOwner(deps, input);
      throw err;
    });
    const line = {
      account_id: created.accountId,
      user_id: created.userId,
      email: created.email,
      ...(created.testApiKey ? { test_api_key: created.testApiKey } : {}),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof DomainError) {
      process.stderr.write(
        `cofre init: ${err.code === "email_taken" ? `a user with email ${input.email.trim().toLowerCase()} already exists with another password (nothing changed)` : err.message}\n`,
      );
      return err.code === "email_taken" ? 1 : 2;
    }
    throw err;
  } finally {
    await deps.store.close();
  }
}

/** Startup lines for `serve`: how to run `init` while the database has no account. */
export async function initStartupNotes(deps: Deps): Promise<string[]> {
  if ((await countAccounts(deps)) > 0) return [];
  return [
    "No account yet. Create the first one with: cofre init --email you@example.com --password '<password>' [--account-name 'My shop'] [--test-key] (in development: bun src/main.ts init ...)",
  ];
}
