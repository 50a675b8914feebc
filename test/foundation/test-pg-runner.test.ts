/** scripts/test-pg.ts: which files the PostgreSQL run leaves out (and says so), and how it splits the rest. */
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { notRunReason, shard } from "../../scripts/test-pg";

const ROOT = join(import.meta.dir, "../..");

describe("the PostgreSQL test run", () => {
  test("leaves out exactly the files marked sqlite-only or own-database on their first line, with the reason", () => {
    expect(notRunReason("// sqlite-only: the WAL checkpointer\nimport x;")).toBe("sqlite-only: the WAL checkpointer");
    expect(notRunReason("// own-database: starts its own cluster\n")).toBe("own-database: starts its own cluster");
    expect(notRunReason("/** A test. */\n// sqlite-only: too late\n")).toBeNull();
    expect(notRunReason("// sqlite-only:\n")).toBeNull(); // a marker must give its reason
  });

  test("runs most of the suite: the marked files are few and each names a reason", () => {
    const files = [...new Glob("test/**/*.test.ts").scanSync({ cwd: ROOT })];
    const marked = files.filter((f) => notRunReason(readFileSync(join(ROOT, f), "utf8")) !== null);
    expect(files.length).toBeGreaterThan(150);
    expect(marked.length).toBeLessThan(files.length / 5);
    expect(marked).toContain("test/foundation/group-commit.test.ts");
    expect(marked).not.toContain("test/charges/create.test.ts");
  });

  test("splits files into groups of about equal weight, every file once", () => {
    const weights: Record<string, number> = { a: 10, b: 9, c: 5, d: 4, e: 1 };
    const groups = shard(Object.keys(weights), 2, (f) => weights[f]!);
    expect(groups.flat().sort()).toEqual(["a", "b", "c", "d", "e"]);
    const totals = groups.map((g) => g.reduce((s, f) => s + weights[f]!, 0));
    expect(Math.abs(totals[0]! - totals[1]!)).toBeLessThanOrEqual(1);
    expect(shard(["x"], 3, () => 1)).toEqual([["x"]]);
  });
});
