/**
 * The one Chromium launcher of the browser tests (checkout, /docs): Debian's chromium driven by
 * playwright-core, headless, with a fresh user-data dir removed on close. `CHROMIUM_PATH`
 * overrides `/usr/bin/chromium`. A missing binary throws an error naming the install command
 * (`bun run test` installs it through scripts/test-tools.sh): never a silent skip.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Path of the Chromium binary the tests use; throws when it is missing. */
export function chromiumPath(env: Record<string, string | undefined> = process.env): string {
  const path = env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (!existsSync(path))
    throw new Error(
      `Chromium is missing at ${path}: the browser tests need it. Run \`bun run test\` (scripts/test-tools.sh installs it) ` +
        "or `sudo apt-get update && sudo apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary.",
    );
  return path;
}

export interface TestBrowser {
  /** A persistent context on a fresh profile; `newPage()` opens tabs in it. */
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Launches Chromium on a fresh profile. `options` go to the context (e.g. `{bypassCSP: true}`
 * to inject axe-core); each call is its own browser process.
 */
export async function launchChromium(options: { bypassCSP?: boolean; locale?: string; timezoneId?: string } = {}): Promise<TestBrowser> {
  const executablePath = chromiumPath();
  const userDataDir = mkdtempSync(join(tmpdir(), "cofre-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, { executablePath, args: CHROMIUM_ARGS, headless: true, ...options });
    return {
      context,
      async close() {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }
}
