/**
 * The README's "Paying out" runs as written: the first-charge block (without its listener) and
 * then the payout block, taken from README.md, are run by bash against `bun run dev` (a fresh data
 * dir, an ephemeral port in place of 3000); the last command answers the paid payout.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../foundation/process";
import { serverEnv } from "../support/backend";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "cofre-readme-payout-"));
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The first ```sh block under `heading`. */
function block(heading: string): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const match = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(heading)));
  if (!match) throw new Error(`README.md has no sh block under '${heading}'`);
  return match[1]!;
}

describe("README: Paying out", () => {
  test("the block has at most eight commands and assumes no jq", () => {
    const commands = block("## Paying out")
      .replace(/\\\n/g, " ")
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
    expect(commands.length).toBeLessThanOrEqual(8);
    expect(block("## Paying out")).not.toContain("jq");
  });

  test("after the first charge, a destination, a payout and two clock moves end with the payout paid", async () => {
    server = await startServer(["bun", "run", "dev"], { dataDir: join(dir, "data"), cwd: ROOT });
    const script =
      `${block("## Your first charge").replace("bun run listen &", "")}\n${block("## Paying out")}`.replaceAll(
        "localhost:3000",
        `127.0.0.1:${server.port}`,
      );
    const bash = Bun.spawn(["bash", "-euo", "pipefail", "-c", script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...serverEnv(join(dir, "data")) },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(bash.stdout).text(),
      new Response(bash.stderr).text(),
      bash.exited,
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const last = JSON.parse(
      stdout
        .trim()
        .split("\n")
        .pop()!
        .replace(/^.*?(\{"id":"po_)/, "$1"),
    );
    expect(last).toMatchObject({ object: "payout", status: "paid", amount: 1500 });
    expect(last.end_to_end_id).toHaveLength(32);
  }, 120_000);
});
