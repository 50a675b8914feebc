/**
 * `bun run check:async` (scripts/check-async.ts) finds the two mistakes an asynchronous storage
 * port makes easy: a dropped promise and a promise tested for truth.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkAsync } from "../../scripts/check-async";

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "cofre-async-"));
  writeFileSync(
    join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ESNext", module: "ESNext", strict: true, lib: ["ESNext"], types: [] },
      include: ["src"],
    }),
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const STORE = `export async function isRevoked(id: string): Promise<boolean> { return id === "x"; }
export async function save(id: string): Promise<void> { void id; }
export function maybe(): Promise<void> | null { return null; }
`;

describe("check:async", () => {
  test("names a dropped promise and a promise tested for truth, with file and line", () => {
    const root = project({
      "src/store.ts": STORE,
      "src/use.ts": `import { isRevoked, save } from "./store";
export async function f(id: string) {
  save(id);
  if (isRevoked(id)) return 1;
  return !isRevoked(id) ? 2 : 3;
}
`,
    });
    try {
      const found = checkAsync(root).map((v) => `${v.file}:${v.line} ${v.rule}`);
      expect(found).toEqual([
        "src/use.ts:3 floating-promise",
        "src/use.ts:4 promise-condition",
        "src/use.ts:5 promise-condition",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("accepts awaited, returned, voided and handled promises and a nullable promise tested for presence", () => {
    const root = project({
      "src/store.ts": STORE,
      "src/use.ts": `import { isRevoked, maybe, save } from "./store";
export async function f(id: string) {
  await save(id);
  void save(id);
  save(id).catch(() => {});
  save(id).then(() => {}, () => {});
  const pending = maybe();
  if (pending) await pending;
  if (await isRevoked(id)) return 1;
  return save(id);
}
`,
    });
    try {
      expect(checkAsync(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
