/**
 * The one Chromium of the browser tests (checkout, dashboard, /docs): Debian's chromium driven by
 * playwright-core, headless. Tests share one browser per `bun test` process (`sharedChromium`,
 * launched on first use, closed after the last file through test/support/suite-end.ts; in a worker
 * of `bun run test`'s `--parallel` run it lives as long as the worker, see `launchForWorker`) and keep
 * apart through their own contexts (each a fresh cookie jar and storage); scripts launch their
 * own (`launchChromium`, a fresh temporary profile playwright deletes on close). `CHROMIUM_PATH`
 * overrides `/usr/bin/chromium`. A missing binary throws an error naming the install command
 * (`bun run test` installs it through scripts/test-tools.sh): never a silent skip.
 * `seriousViolations` runs axe-core in a page (measured: axe's 650 kB compiled from a cached URL
 * costs a quarter of an inline injection, and it is injected once per document).
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** Set in the worker processes of `bun test --parallel` (bun 1.4.5), absent in a single `bun test` process. */
const PARALLEL_WORKER = process.env.BUN_TEST_WORKER_ID !== undefined;

/** A parallel worker's Chromium keeps its temporary folders in `<tmpdir>/<WORKER_DIR><pid>`. */
const WORKER_DIR = "cofre-chromium-";

/** Whether process `pid` exists (a signal 0 reaches it, or it belongs to another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The shared browser of a `--parallel` worker. Bun runs the global `afterAll` of
 * test/support/suite-end.ts after every file of a worker and gives the worker no hook before it
 * exits, so closing there would relaunch Chromium for every browser file (~0.8 s each); the
 * browser lives as long as the worker instead (Chromium quits when the worker's pipe to it
 * closes). Playwright then never removes its temporary profile and artifacts folders, so they
 * are made (through TMPDIR, which playwright reads while launching) in a folder named after the
 * worker's pid, and the folders of workers that no longer exist are removed first.
 */
async function launchForWorker(): Promise<Browser> {
  const root = tmpdir();
  for (const name of readdirSync(root)) {
    if (!name.startsWith(WORKER_DIR)) continue;
    const pid = Number(name.slice(WORKER_DIR.length));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid))
      rmSync(join(root, name), { recursive: true, force: true });
  }
  const own = join(root, `${WORKER_DIR}${process.pid}`);
  mkdirSync(own, { recursive: true });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = own;
  try {
    return await launchChromium();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

let shared: Promise<Browser> | null = null;

/**
 * The browser every test file of this process shares (launched on the first call; a crashed one
 * is relaunched). Files open their own contexts (`browser.newContext(...)`, `{bypassCSP: true}`
 * where axe-core is injected) and close them; never close the browser itself.
 */
export function sharedChromium(): Promise<Browser> {
  if (!shared) {
    const launching = (PARALLEL_WORKER ? launchForWorker() : launchChromium()).then(async (browser) => {
      browser.on("disconnected", () => {
        if (shared === launching) shared = null;
      });
      if (!PARALLEL_WORKER) {
        const { atSuiteEnd } = await import("./suite-end");
        atSuiteEnd(async () => {
          if (browser.isConnected()) await browser.close();
        });
      }
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
