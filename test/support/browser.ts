/**
 * The one Chromium of the browser tests (checkout, dashboard, /docs): Debian's chromium driven by
 * playwright-core, headless. Tests share one browser per `bun test` process (`sharedChromium`,
 * launched on first use, closed after the last file through test/support/suite-end.ts) and keep
 * apart through their own contexts (each a fresh cookie jar and storage); scripts launch their
 * own (`launchChromium`, a fresh temporary profile playwright deletes on close). `CHROMIUM_PATH`
 * overrides `/usr/bin/chromium`. A missing binary throws an error naming the install command
 * (`bun run test` installs it through scripts/test-tools.sh): never a silent skip.
 * `seriousViolations` runs axe-core in a page (measured: axe's 650 kB compiled from a cached URL
 * costs a quarter of an inline injection, and it is injected once per document).
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

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

/** A headless Chromium of its own on a fresh profile (scripts); the caller closes it. Tests use `sharedChromium`. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
}

let shared: Promise<Browser> | null = null;

/**
 * The browser every test file of this process shares (launched on the first call; a crashed one
 * is relaunched). Files open their own contexts (`browser.newContext(...)`, `{bypassCSP: true}`
 * where axe-core is injected) and close them; never close the browser itself.
 */
export function sharedChromium(): Promise<Browser> {
  if (!shared) {
    const launching = launchChromium().then(async (browser) => {
      browser.on("disconnected", () => {
        if (shared === launching) shared = null;
      });
      const { atSuiteEnd } = await import("./suite-end");
      atSuiteEnd(async () => {
        if (browser.isConnected()) await browser.close();
      });
      return browser;
    });
    launching.catch(() => {
      if (shared === launching) shared = null;
    });
    shared = launching;
  }
  return shared;
}

const AXE_PATH = require.resolve("axe-core/axe.min.js");
let axeServer: ReturnType<typeof Bun.serve> | null = null;

/**
 * URL of axe-core on a loopback server of its own, cacheable for a year: Chromium keeps the
 * compiled script (V8 code cache) per context, so the second and later injections in a context
 * skip compiling it. Stopped after the last file.
 */
async function axeUrl(): Promise<string> {
  if (!axeServer) {
    const bytes = await Bun.file(AXE_PATH).bytes();
    axeServer = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        new Response(bytes, {
          headers: {
            "content-type": "text/javascript; charset=utf-8",
            "cache-control": "public, max-age=31536000, immutable",
          },
        }),
    });
    const server = axeServer;
    const { atSuiteEnd } = await import("./suite-end");
    atSuiteEnd(async () => {
      server.stop(true);
      if (axeServer === server) axeServer = null;
    });
  }
  return `http://127.0.0.1:${axeServer.port}/axe.min.js`;
}

/**
 * Serious and critical axe-core violations of the page's current document, as `rule: targets`
 * (empty when accessible). Injects axe-core once per document (the page's context must bypass
 * CSP: `newContext({bypassCSP: true})`); on a single-page app walked through hash routes it is
 * compiled once and run on every view.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ url: await axeUrl() });
  const found: { id: string; impact: string; targets: string[] }[] = await page.evaluate(async () => {
    const r = await (window as any).axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n: any) => n.target.join(" ")),
    }));
  });
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.targets.join(", ")}`);
}
