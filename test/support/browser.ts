/**
 * The one Chromium launcher of the browser tests (checkout, /docs): Debian's chromium driven by
 * playwright-core, headless, each launch on a fresh temporary profile (user-data dir) that
 * playwright deletes on close. `CHROMIUM_PATH` overrides `/usr/bin/chromium`. A missing binary
 * throws an error naming the install command (`bun run test` installs it through
 * scripts/test-tools.sh): never a silent skip.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Flags of every launch: no sandbox (root in CI), no GPU, nothing fetched from the network by the browser itself. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The install command named by the error of a missing Chromium. */
const CHROMIUM_INSTALL = "sudo apt-get update && sudo apt-get install -y chromium";

/** Path of the Chromium binary the tests use (`CHROMIUM_PATH` or /usr/bin/chromium); throws when it is missing. */
export function chromiumPath(env: Record<string, string | undefined> = process.env): string {
  const path = env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (!existsSync(path))
    throw new Error(
      `Chromium is missing at ${path}, and the browser tests need it. Run \`bun run test\` (scripts/test-tools.sh installs it), ` +
        `or \`${CHROMIUM_INSTALL}\`, or set CHROMIUM_PATH to a Chromium binary.`,
    );
  return path;
}

/** A headless Chromium on a fresh profile; open contexts with `browser.newContext(...)` (e.g. `{bypassCSP: true}` to inject axe-core). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
}
