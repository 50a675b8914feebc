/**
 * The README's "Your first charge" runs as written: its shell block, taken from README.md, is run
 * by bash against `bun run dev` (a fresh data dir, an ephemeral port in place of 3000), and the
 * receiver it starts (fed by `cofre listen`, its state in the test's folder) prints `charge.paid`
 * with a signature the `standardwebhooks` library accepted.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../foundation/process";
import { serverEnv } from "../support/backend";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "cofre-readme-"));
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The first ```sh block under "## Your first charge". */
function firstChargeBlock(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Your first charge"));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error("README.md has no sh block under 'Your first charge'");
  return match[1]!;
}

describe("README: Your first charge", () => {
  test("the block has at most six commands and assumes no jq", () => {
    const block = firstChargeBlock();
    const commands = block
      .replace(/\\\n/g, " ")
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
    expect(commands.length).toBeLessThanOrEqual(6);
    expect(block).not.toContain("jq");
  });

  test("creates a charge, pays it and the receiver prints the signed charge.paid, and does so again when the block is re-run in the same folder", async () => {
    server = await startServer(["bun", "run", "dev"], { dataDir: join(dir, "data"), cwd: ROOT });
    // Twice in the same folder and database: `init` with the same e-mail and password issues a
    // new test key (extensions.md "Merchant profile and a repeatable first run").
    for (const run of [1, 2]) {
      const log = join(dir, `listen-${run}.log`);
      // The one change to the block: the service's ephemeral port for 3000, the receiver's output
      // to a file, and a wait for the receiver to register before the charge (a person types slower);
      // the receiver is told the port through COFRE_URL (its default is http://localhost:3000).
      const script = firstChargeBlock()
        .replaceAll("localhost:3000", `127.0.0.1:${server.port}`)
        .replace(
          "bun run listen &",
          `bun run listen > '${log}' 2>&1 &\nuntil grep -q 'listening on' '${log}' 2>/dev/null; do sleep 0.05; done`,
        );
      const bash = Bun.spawn(
        [
          "bash",
          "-euo",
          "pipefail",
          "-c",
          `${script}\nsleep 0\nfor i in $(seq 1 200); do grep -q 'charge.paid' '${log}' && break; sleep 0.05; done\npkill -P $! || true; kill $! 2>/dev/null || true`,
        ],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH ?? "",
            HOME: process.env.HOME ?? "",
            ...serverEnv(join(dir, "data")),
            LISTEN_PORT: "0",
            COFRE_URL: `http://127.0.0.1:${server.port}`,
            COFRE_LISTEN_STATE: join(dir, "listen.json"),
          },
          stdout: "pipe",
          stderr: "pipe",
        },
      );
      const [stdout, stderr, code] = await Promise.all([
        new Response(bash.stdout).text(),
        new Response(bash.stderr).text(),
        bash.exited,
      ]);
      const received = readFileSync(log, "utf8");
      expect({ run, code, stderr }).toEqual({ run, code: 0, stderr: "" });
      // Step 4 echoes the checkout address; step 5 answers the paid charge.
      expect(stdout).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${server.port}/c/[0-9a-f]{32}`));
      expect(stdout).toContain('"status":"paid"');
      expect(received).toMatch(/<- charge\.created +wd_\w+ +signature ok/);
      expect(received).toMatch(/<- charge\.paid +wd_\w+ +signature ok/);
      expect(received).not.toContain("NOT valid");
    }
  }, 60_000);
});
