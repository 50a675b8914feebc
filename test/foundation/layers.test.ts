/**
 * `bun run check:layers` (scripts/check-layers.ts): each rule fails on a violation planted in a
 * temporary tree, passes on the real tree, and the database ratchet's baseline only shrinks.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { baselinePath, checkLayers, parseBaseline, type Violation } from "../../scripts/check-layers";

const ROOT = join(import.meta.dir, "../..");
const trees: string[] = [];

/** A temporary tree holding `files` (path -> text) under its root. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "cofre-layers-"));
  trees.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** `[file, rule]` of every violation, sorted. */
function found(vs: Violation[]): [string, string][] {
  return vs.map((v): [string, string] => [v.file, v.rule]).sort();
}

afterEach(() => {
  for (const t of trees.splice(0)) rmSync(t, { recursive: true, force: true });
});

const CLEAN = {
  "src/http/errors.ts": "export class ApiError extends Error {}\n",
  "src/http/routes/charges.ts":
    'import { getCharge } from "../../domain/charges/service";\nexport const r = getCharge;\n',
  "src/domain/charges/service.ts":
    'import type { Store } from "../../store/port";\nimport type { PaymentProvider } from "../../providers/types";\nimport { ProviderRegistry } from "../../providers/registry";\nexport const getCharge = (s: Store, id: string) => s.read.charges.byId(id);\n',
  "src/store/port.ts": "export interface Store { read: any }\n",
  "src/store/sqlite/charges.ts":
    'import { eq } from "drizzle-orm";\nimport { transactions } from "../../../db/schema";\nexport const byId = (db: any) => db.$client.prepare("select id from transactions where id = ?");\n',
  "src/store/pg/migrations.ts": 'export const q = "CREATE TABLE x (id text)";\n',
  "src/db/client.ts": 'import { Database } from "bun:sqlite";\nexport const open = () => new Database(":memory:");\n',
  "src/providers/types.ts": "export interface PaymentProvider {}\n",
  "src/providers/registry.ts": "export class ProviderRegistry {}\n",
  "src/providers/sandbox/index.ts": "export const sandbox = 1;\n",
};

describe("check:layers on the real tree", () => {
  test("passes with the committed baseline", () => {
    expect(checkLayers(ROOT, parseBaseline(readFileSync(baselinePath(ROOT), "utf8")))).toEqual([]);
  });
});

describe("rule (a): no src/http import below HTTP", () => {
  test("a clean tree (HTTP importing the domain, the domain the storage port and the provider seam, SQL only in the adapters) passes", () => {
    expect(checkLayers(tree(CLEAN), new Set())).toEqual([]);
  });

  test("fails on a domain file importing an HTTP plugin's type", () => {
    const root = tree({
      ...CLEAN,
      "src/domain/charges/create.ts":
        'import type { ApiKeyAuth } from "../../http/plugins/api-key-auth";\nexport type A = ApiKeyAuth;\n',
    });
    const vs = checkLayers(root, new Set());
    expect(found(vs)).toEqual([["src/domain/charges/create.ts", "http-import"]]);
    expect(vs[0]!.detail).toContain("../../http/plugins/api-key-auth");
  });

  test("fails on providers and jobs importing src/http, by static, re-export and dynamic import", () => {
    const root = tree({
      ...CLEAN,
      "src/providers/sandbox/boleto.ts": 'import { ApiError } from "../../http/errors";\nexport const e = ApiError;\n',
      "src/jobs/advance.ts": 'export { ApiError } from "../http/errors";\n',
      "src/domain/ledger/service.ts": 'export const load = () => import("../../http/errors");\n',
    });
    expect(found(checkLayers(root, new Set()))).toEqual([
      ["src/domain/ledger/service.ts", "http-import"],
      ["src/jobs/advance.ts", "http-import"],
      ["src/providers/sandbox/boleto.ts", "http-import"],
    ]);
  });
});

describe("rule (b): the domain reaches providers only through types.ts and registry.ts", () => {
  test("fails on a domain file importing a concrete provider", () => {
    const root = tree({
      ...CLEAN,
      "src/domain/charges/create.ts": 'import { sandbox } from "../../providers/sandbox";\nexport const s = sandbox;\n',
    });
    expect(found(checkLayers(root, new Set()))).toEqual([["src/domain/charges/create.ts", "concrete-provider"]]);
  });
});

describe("rule (c): database code outside the storage layer is a ratchet", () => {
  const OFFENDERS = {
    "src/domain/ledger/balances.ts": 'import type { Statement } from "bun:sqlite";\nexport type S = Statement;\n',
    "src/domain/payments/list.ts": 'import { and } from "drizzle-orm";\nexport const a = and;\n',
    "src/domain/charges/views.ts":
      'import type { transactions } from "../../../db/schema";\nexport type Row = typeof transactions.$inferSelect;\n',
    "src/domain/charges/expiry.ts": "export const sweep = (db: any) => db.$client.run(1);\n",
    "src/jobs/statements.ts": "export const Q = `DELETE FROM jobs WHERE id = ?`;\n",
  };

  test("fails on a repository file left in the domain: only the adapter folders may hold SQL", () => {
    const root = tree({
      ...CLEAN,
      "src/domain/charges/repo.ts": 'export const q = "SELECT id FROM transactions WHERE id = ?";\n',
    });
    expect(found(checkLayers(root, new Set()))).toEqual([["src/domain/charges/repo.ts", "database-outside-storage"]]);
  });

  test("fails on each kind of new offender: bun:sqlite type, drizzle, the table schema, the raw driver, an SQL string", () => {
    expect(found(checkLayers(tree({ ...CLEAN, ...OFFENDERS }), new Set()))).toEqual(
      Object.keys(OFFENDERS)
        .sort()
        .map((f) => [f, "database-outside-storage"]),
    );
  });

  test("passes when every offender is listed in the baseline", () => {
    expect(checkLayers(tree({ ...CLEAN, ...OFFENDERS }), new Set(Object.keys(OFFENDERS)))).toEqual([]);
  });

  test("fails on a listed file that no longer offends, and on a listed file that is gone, so the list only shrinks", () => {
    const root = tree({ ...CLEAN, "src/domain/charges/expiry.ts": "export const sweep = () => 0;\n" });
    const vs = checkLayers(root, new Set(["src/domain/charges/expiry.ts", "src/domain/old.ts"]));
    expect(found(vs)).toEqual([
      ["src/domain/charges/expiry.ts", "baseline-stale"],
      ["src/domain/old.ts", "baseline-stale"],
    ]);
    expect(vs.map((v) => v.detail).sort()).toEqual([
      "is gone: strike it from the baseline",
      "no longer holds database code: strike it from the baseline",
    ]);
  });

  test("ignores prose that merely starts with an SQL word", () => {
    const root = tree({
      ...CLEAN,
      "src/web/copy.ts": 'export const hint = "Select one from the list; update your profile set up.";\n',
    });
    expect(checkLayers(root, new Set())).toEqual([]);
  });
});

describe("the baseline file", () => {
  test("ignores comments and blank lines", () => {
    expect([...parseBaseline("# header\n\nsrc/a.ts  # why\nsrc/b.ts\n")]).toEqual(["src/a.ts", "src/b.ts"]);
  });
});
