/**
 * `bun run check:layers`: the layering rules of docs/architecture.md, checked over `src/`.
 *  (a) nothing below HTTP (ranks 0-5, the simulators) imports `src/http`;
 *  (b) every file belongs to a layer of scripts/layer-graph.ts and imports only files of its own
 *      rank or lower, never a peer layer of its rank (providers, jobs and the two storage adapters
 *      are peers); the simulators import ranks 0-2 only, and only the composition root imports them;
 *  (c) no SQL or database type outside the storage adapters (`src/store/sqlite/`, `src/store/pg/`;
 *      the simulators `src/psp-sim/` and `src/stripe-sim/` are their own programs).
 *      `scripts/layers-baseline.txt` (empty since the storage port landed, issue 16) may list
 *      offenders; the check fails when a file not listed offends, or when a listed file no longer
 *      offends (or is gone), so the list only shrinks;
 *  (d) no circle of the file-level import graph crosses folders (a strongly connected component
 *      whose files sit in more than one folder), reported with its files and one example cycle.
 * Rules (a), (b) and (d) hold outright: no baseline. Imports are read with the TypeScript compiler's
 * `preProcessFile` (static, re-export, dynamic, `require` and type-only imports alike); SQL strings
 * by regex. Exit 0 clean, 1 with one line per problem.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix, relative } from "node:path";
// The compiler API of TypeScript 5 (devDependency `typescript5`; TypeScript 7 ships no JS API yet).
import ts from "typescript5";
import { crossFolderCycles, edgeRule, folderOf, layerOf } from "./layer-graph";

/** One broken rule: the file (relative to the root, `/`-separated), the rule and what offends. */
export interface Violation {
  file: string;
  rule:
    | "http-import"
    | "upward-import"
    | "peer-import"
    | "simulator-import"
    | "unplaced"
    | "cross-folder-cycle"
    | "database-outside-storage"
    | "baseline-stale";
  detail: string;
}

const SOURCE = /\.(ts|tsx)$/;
/** Module specifiers that are database code (rule c): drizzle, bun:sqlite. */
const DB_PACKAGE = /^(drizzle-orm|drizzle-kit|bun:sqlite)(\/|$)/;
/** An SQL keyword in all lower or all upper case (prose such as "Select one from..." is not SQL). */
const kw = (words: string) =>
  words
    .split(" ")
    .map((w) => `(?:${w}|${w.toUpperCase()})`)
    .join("\\s+");
/** A string literal or template that starts like an SQL statement. */
const SQL_STRING = new RegExp(
  "[\"'`]\\s*(?:" +
    [
      `${kw("select")}\\s[\\s\\S]{0,200}?\\s${kw("from")}\\s`,
      `${kw("insert")}\\s+(?:${kw("or")}\\s+\\w+\\s+)?${kw("into")}\\s`,
      `${kw("update")}\\s+\\w+\\s+${kw("set")}\\s`,
      `${kw("delete from")}\\s`,
      `${kw("pragma")}\\s+\\w`,
      `${kw("create")}\\s+(?:${kw("unique")}\\s+)?(?:${kw("table")}|${kw("index")}|${kw("trigger")}|${kw("view")})\\s`,
      `${kw("drop")}\\s+(?:${kw("table")}|${kw("index")}|${kw("trigger")})\\s`,
      `${kw("begin")}\\s+(?:${kw("immediate")}|${kw("deferred")}|${kw("exclusive")})`,
    ].join("|") +
    ")",
);
/** Direct use of the driver under drizzle (`db.$client.prepare(...)`, `.query(...)`). */
const RAW_CLIENT = /\$client\b/;

/** Every source file under `root/src`, relative to `root`, sorted. */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const src = join(root, "src");
  for (const e of readdirSync(src, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && SOURCE.test(e.name)) out.push(relative(root, join(e.parentPath, e.name)).split("\\").join("/"));
  }
  return out.sort();
}

/** Module specifiers `code` imports (import/export-from, `import()`, `import type`), by the TS compiler. */
export function importsOf(code: string): string[] {
  return ts.preProcessFile(code, true, true).importedFiles.map((f) => f.fileName);
}

/** `spec` imported from `file` as a root-relative path without extension; null for packages. */
export function resolveSpec(file: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  return posix
    .normalize(posix.join(posix.dirname(file), spec))
    .replace(/\.(ts|tsx|js)$/, "")
    .replace(/\/index$/, "");
}

/**
 * True for the storage adapters: `src/store/sqlite/**`, `src/store/pg/**`. The PSP
 * and Stripe simulators (`src/psp-sim/`, `src/stripe-sim/`: separate programs with their own
 * databases) are outside Cofre's layers.
 */
export function isStorage(file: string): boolean {
  return (
    file.startsWith("src/store/sqlite/") ||
    file.startsWith("src/store/pg/") ||
    file.startsWith("src/psp-sim/") ||
    file.startsWith("src/stripe-sim/")
  );
}

/** Why `file` (text `code`) holds database code outside the storage layer; empty when it does not. */
export function databaseOffences(file: string, code: string): string[] {
  if (isStorage(file)) return [];
  const found: string[] = [];
  for (const spec of importsOf(code)) {
    if (DB_PACKAGE.test(spec)) found.push(`imports ${spec}`);
    const target = resolveSpec(file, spec);
    if (target !== null && /(^|\/)db\/schema(\/|$)/.test(target)) found.push(`imports the table schema (${spec})`);
  }
  if (RAW_CLIENT.test(code)) found.push("uses the raw driver ($client)");
  const sql = SQL_STRING.exec(code);
  if (sql) found.push(`holds an SQL string (${sql[0].trim().slice(0, 40)}...)`);
  return found;
}

/** The file a resolved specifier names among `files`: `x.ts`, `x.tsx`, `x/index.ts(x)`, else `target` itself. */
export function targetFile(target: string, files: ReadonlySet<string>): string {
  for (const f of [`${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`])
    if (files.has(f)) return f;
  return target;
}

/** The files under `src/` that `file` (text `code`) imports, each once, resolved against `files`. */
export function importedFiles(file: string, code: string, files: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const spec of importsOf(code)) {
    const target = resolveSpec(file, spec);
    if (target?.startsWith("src/")) out.add(targetFile(target, files));
  }
  return [...out];
}

/** Rules (a) and (b) for one file's imports (`targets`, resolved by `importedFiles`). */
export function importViolations(file: string, targets: readonly string[]): Violation[] {
  const out: Violation[] = [];
  if (layerOf(file) === null)
    out.push({
      file,
      rule: "unplaced",
      detail:
        "belongs to no layer: put it in a folder of the layer table (scripts/layer-graph.ts, docs/architecture.md)",
    });
  for (const target of targets) {
    const broken = edgeRule(file, target);
    if (broken) out.push({ file, ...broken });
  }
  return out;
}

/** Rule (d): one violation per circle of `graph` that crosses folders, named after its first file. */
export function cycleViolations(graph: ReadonlyMap<string, readonly string[]>): Violation[] {
  return crossFolderCycles(graph).map(({ files, path }) => ({
    file: files[0]!,
    rule: "cross-folder-cycle",
    detail: `a circle of ${files.length} files in ${new Set(files.map(folderOf)).size} folders, e.g. ${path.join(" -> ")}; its files: ${files.join(", ")}`,
  }));
}

/** Parses the baseline: one root-relative path a line; `#` comments and blank lines ignored. */
export function parseBaseline(text: string): Set<string> {
  return new Set(
    text
      .split("\n")
      .map((l) => l.replace(/#.*/, "").trim())
      .filter(Boolean),
  );
}

/** Every violation of the tree at `root` against `baseline` (rule c's allowed offenders). */
export function checkLayers(root: string, baseline: Set<string>): Violation[] {
  const out: Violation[] = [];
  const offending = new Set<string>();
  const files = sourceFiles(root);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const code = readFileSync(join(root, file), "utf8");
    const targets = importedFiles(file, code, known);
    graph.set(
      file,
      targets.filter((t) => known.has(t)),
    );
    out.push(...importViolations(file, targets));
    const db = databaseOffences(file, code);
    if (db.length === 0) continue;
    offending.add(file);
    if (!baseline.has(file))
      out.push({
        file,
        rule: "database-outside-storage",
        detail: `${db.join("; ")}: move it behind a repository (not listed in the baseline)`,
      });
  }
  out.push(...cycleViolations(graph));
  for (const file of baseline) {
    if (!offending.has(file))
      out.push({
        file,
        rule: "baseline-stale",
        detail: existsSync(join(root, file))
          ? "no longer holds database code: strike it from the baseline"
          : "is gone: strike it from the baseline",
      });
  }
  return out;
}

/** Default baseline path for a tree. */
export function baselinePath(root: string): string {
  return join(root, "scripts/layers-baseline.txt");
}

if (import.meta.main) {
  const root = join(import.meta.dir, "..");
  const problems = checkLayers(root, parseBaseline(readFileSync(baselinePath(root), "utf8")));
  for (const v of problems) console.error(`${v.file}: [${v.rule}] ${v.detail}`);
  if (problems.length > 0) {
    console.error(`check:layers: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log("check:layers: ok");
}
