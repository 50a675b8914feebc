/**
 * `bun run test:pg`: the test suite on PostgreSQL (issue 17: "the whole suite runs on both
 * backends"). Every test file runs with COFRE_TEST_PG=1 (test/support/backend.ts: each Deps gets
 * a PostgreSQL database of its own, copied from a migrated template on a throwaway cluster the
 * run starts itself), except files whose first line is `// sqlite-only: <reason>` (they test
 * SQLite's own machinery: group commit, checkpointer, the request-log file, ...), and files whose
 * first line is `// own-database: <reason>` (they start and test PostgreSQL themselves whatever
 * the run, so `bun run test` already ran them: the adapter's own tests, the multi-instance
 * test); both are listed with their reasons, never skipped silently.
 *
 * The files are split into TEST_PG_SHARDS `bun test` processes (default 2; each starts its own
 * cluster), run side by side. Output goes through one writer; the last lines are the totals:
 *   PostgreSQL run, 2 shards: 1190 pass, 0 fail
 *   <N> pass
 *   <N> fail
 * Exit code 1 when any test failed or a shard crashed. Extra arguments are passed to `bun test`
 * (e.g. a name filter `-t "refund"`); file arguments restrict the run to those files.
 */
import { Glob } from "bun";
import { readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..");
const SHARDS = Math.max(1, Number(process.env.TEST_PG_SHARDS ?? 2));

/**
 * Why a file is not run here: `// sqlite-only: <reason>` or `// own-database: <reason>` on its first line; null
 * otherwise.
 */
export function notRunReason(text: string): string | null {
  const first = text.slice(0, text.indexOf("\n") >>> 0);
  const m = /^\/\/ (sqlite-only|own-database): (.+)$/.exec(first.trim());
  return m ? `${m[1]}: ${m[2]!.trim()}` : null;
}

/** Splits `files` into `n` groups of about equal total weight (largest first, into the lightest group). */
export function shard<T>(files: T[], n: number, weight: (f: T) => number): T[][] {
  const groups = Array.from({ length: n }, () => ({ files: [] as T[], total: 0 }));
  for (const f of [...files].sort((a, b) => weight(b) - weight(a))) {
    const g = groups.reduce((min, x) => (x.total < min.total ? x : min));
    g.files.push(f);
    g.total += weight(f);
  }
  return groups.map((g) => g.files).filter((g) => g.length > 0);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const fileArgs = args.filter((a) => a.endsWith(".test.ts"));
  const passThrough = args.filter((a) => !a.endsWith(".test.ts"));
  const all = fileArgs.length
    ? fileArgs.map((f) => relative(ROOT, join(process.cwd(), f)))
    : [...new Glob("test/**/*.test.ts").scanSync({ cwd: ROOT })].sort();
  const run: string[] = [];
  const excluded: [string, string][] = [];
  for (const f of all) {
    const reason = notRunReason(readFileSync(join(ROOT, f), "utf8"));
    if (reason) excluded.push([f, reason]);
    else run.push(f);
  }
  const out = (s: string) => process.stdout.write(s);
  if (excluded.length) {
    out(`PostgreSQL run: ${excluded.length} file(s) not run here:\n`);
    for (const [f, why] of excluded) out(`  ${f}: ${why}\n`);
  }
  // File size is a fair proxy for a file's run time.
  const groups = shard(run, SHARDS, (f) => statSync(join(ROOT, f)).size);
  let pass = 0;
  let fail = 0;
  let crashed = false;
  await Promise.all(
    groups.map(async (files, i) => {
      const child = Bun.spawn(["bun", "test", "--timeout", "20000", ...passThrough, ...files.map((f) => `./${f}`)], {
        cwd: ROOT,
        env: { ...process.env, COFRE_TEST_PG: "1" },
        stdout: "pipe",
        stderr: "pipe",
      });
      // bun test reports on stderr; one shard's output is written as a block per chunk, prefixed.
      const prefix = `[pg ${i + 1}/${groups.length}] `;
      let text = "";
      const pump = async (stream: ReadableStream<Uint8Array>) => {
        const decoder = new TextDecoder();
        let carry = "";
        for await (const chunk of stream) {
          const lines = (carry + decoder.decode(chunk, { stream: true })).split("\n");
          carry = lines.pop()!;
          if (lines.length) {
            const block = lines.map((l) => `${prefix + l}\n`).join("");
            text += `${lines.join("\n")}\n`;
            out(block);
          }
        }
        if (carry) {
          text += `${carry}\n`;
          out(`${prefix + carry}\n`);
        }
      };
      await Promise.all([pump(child.stdout), pump(child.stderr)]);
      const code = await child.exited;
      // bun test's own summary is the last "N pass" / "N fail" pair of the shard.
      const p = [...text.matchAll(/^\s*(\d+) pass$/gm)].at(-1);
      const f = [...text.matchAll(/^\s*(\d+) fail$/gm)].at(-1);
      if (!p) crashed = true;
      pass += Number(p?.[1] ?? 0);
      fail += Number(f?.[1] ?? 0);
      if (code !== 0 && !f) crashed = true;
    }),
  );
  out(
    `PostgreSQL run, ${groups.length} shard${groups.length === 1 ? "" : "s"}: ${pass} pass, ${fail} fail${crashed ? " (a shard crashed)" : ""}\n`,
  );
  out(` ${pass} pass\n ${fail} fail\n`);
  return fail > 0 || crashed ? 1 : 0;
}

if (import.meta.main) process.exit(await main());
