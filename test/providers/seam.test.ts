/**
 * The provider seam's import rules, checked over the source tree: the domain declares what it needs
 * of providers (src/domain/providers/: types.ts, registry.ts, send-types.ts, sandbox-contract.ts) and
 * imports nothing from src/providers (the composition root picks concrete adapters, which import the
 * domain), and provider code never touches the database.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative } from "node:path";

const ROOT = join(import.meta.dir, "../..");

/** Every .ts file under `dir` (relative to the repository root). */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith(".ts")) out.push(relative(ROOT, join(e.parentPath, e.name)));
  }
  return out;
}

/** Module specifiers of every import / export-from / dynamic import in `code`. */
function specifiers(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(
    /(?:^|\s)(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|(?:^|\s)import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm,
  ))
    out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

/** True when `spec`, imported from `file` (root-relative), names a module under src/providers/. */
function providerModule(file: string, spec: string): boolean {
  if (!spec.startsWith(".")) return false;
  return posix.normalize(posix.join(posix.dirname(file), spec)).startsWith("src/providers/");
}

/** True when provider code may not import `spec`: the database client, drizzle, bun:sqlite, schema. */
function databaseModule(spec: string): boolean {
  return /(^|\/)db\/(client|schema)|^drizzle-orm|^bun:sqlite|(^|\/)deps$/.test(spec);
}

describe("the checks themselves", () => {
  test("flag an import of src/providers in any form and allow the domain's own provider modules", () => {
    const code = [
      'import "../../providers/sandbox";',
      'import { SANDBOX_CARDS } from "../../providers/sandbox/card";',
      "export { x } from '../../providers/bcb-pix-v2/client';",
      'const m = await import("../../providers/sandbox/pix");',
      'import type { PaymentProvider } from "../../providers/types";',
      'import type { TransactionRow } from "../providers/types";',
      'import {\n  ProviderRegistry,\n} from "../providers/registry";',
    ].join("\n");
    const specs = specifiers(code);
    expect(specs).toHaveLength(7);
    expect(specs.filter((s) => providerModule("src/domain/charges/create.ts", s))).toEqual([
      "../../providers/sandbox",
      "../../providers/sandbox/card",
      "../../providers/bcb-pix-v2/client",
      "../../providers/sandbox/pix",
      "../../providers/types",
    ]);
    expect(
      ["../../db/client", "../../../db/schema", "drizzle-orm", "bun:sqlite", "../../deps", "../../pix/ids"].filter(
        databaseModule,
      ),
    ).toEqual(["../../db/client", "../../../db/schema", "drizzle-orm", "bun:sqlite", "../../deps"]);
  });
});

describe("the seam over the source tree", () => {
  test("no file under src/domain imports src/providers", () => {
    const files = sources("src/domain");
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain("src/domain/providers/registry.ts");
    const offending = files.flatMap((f) =>
      specifiers(readFileSync(join(ROOT, f), "utf8"))
        .filter((s) => providerModule(f, s))
        .map((s) => `${f}: ${s}`),
    );
    expect(offending).toEqual([]);
  });

  test("no file under src/providers imports the database, drizzle or the deps bag", () => {
    const files = sources("src/providers");
    expect(files).toContain("src/providers/sandbox/index.ts");
    const offending = files.flatMap((f) =>
      specifiers(readFileSync(join(ROOT, f), "utf8"))
        .filter(databaseModule)
        .map((s) => `${f}: ${s}`),
    );
    // Row *types* (TransactionRow, RefundRecord) come from the storage port's plain rows.
    expect(offending).toEqual([]);
    expect(readFileSync(join(ROOT, "src/domain/providers/types.ts"), "utf8")).toContain('from "../../store/rows";');
  });
});
