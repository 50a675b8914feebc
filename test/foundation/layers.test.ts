/**
 * `bun run check:layers` (scripts/check-layers.ts, scripts/layer-graph.ts): each rule fails on a
 * violation planted in a temporary tree, passes on the real tree, and the database ratchet's
 * baseline only shrinks (the layer table and the cycle search alone: ./layer-graph.test.ts).
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

/** The violations of `CLEAN` plus `files`, with an empty baseline. */
const check = (files: Record<string, string>) => checkLayers(tree({ ...CLEAN, ...files }), new Set());

/** A module text importing each of `specs` (and exporting nothing of interest). */
const imports = (...specs: string[]) => `${specs.map((s) => `import "${s}";`).join("\n")}\nexport const x = 1;\n`;

afterEach(() => {
  for (const t of trees.splice(0)) rmSync(t, { recursive: true, force: true });
});

/** A tree with one file in every layer, each importing what its layer may import. */
const CLEAN: Record<string, string> = {
  "src/lib/ids.ts": "export const id = () => 1;\n",
  "src/formats/boleto.ts": imports("../lib/ids"),
  "src/pix/brcode.ts": imports("../lib/ids", "../formats/boleto"),
  "src/config.ts": imports("./lib/ids", "./pix/brcode"),
  "src/store/rows/index.ts": "export interface ChargeRow { id: string }\n",
  "src/store/port.ts": 'import type { ChargeRow } from "./rows";\nexport interface Store { read: ChargeRow }\n',
  "src/store/port/claims.ts": imports("../rows"),
  "src/store/memory/claims.ts":
    'import type { Store } from "../port";\nimport "../port/claims";\nexport type S = Store;\n',
  "src/domain/charges/model.ts": "export const STATUSES = ['PAID'];\n",
  "src/domain/charges/service.ts":
    'import type { Store } from "../../store/port";\nimport type { PaymentProvider } from "../providers/types";\nimport { ProviderRegistry } from "../providers/registry";\nimport { STATUSES } from "./model";\nimport { id } from "../../lib/ids";\nimport "../../config";\nexport const getCharge = (s: Store, i: string) => s.read;\n',
  "src/domain/providers/types.ts": "export interface PaymentProvider {}\n",
  "src/domain/providers/registry.ts":
    'import type { PaymentProvider } from "./types";\nexport class ProviderRegistry {}\n',
  "src/providers/sandbox/index.ts": imports("../../domain/providers/types", "../../formats/boleto"),
  "src/jobs/scheduler.ts": imports("../domain/charges/service", "../store/port"),
  "src/store/sqlite/charges.ts":
    'import { eq } from "drizzle-orm";\nimport { transactions } from "../../../db/schema";\nimport type { Store } from "../port";\nimport { STATUSES } from "../../domain/charges/model";\nexport const byId = (db: any) => db.$client.prepare("select id from transactions where id = ?");\n',
  "src/store/sqlite/client.ts":
    'import { Database } from "bun:sqlite";\nexport const open = () => new Database(":memory:");\n',
  "src/store/pg/index.ts": imports("./migrations", "../port"),
  "src/store/pg/migrations.ts": 'export const q = "CREATE TABLE x (id text)";\n',
  "src/http/errors.ts": "export class ApiError extends Error {}\n",
  "src/http/routes/charges.ts": imports(
    "../../domain/charges/service",
    "../../web/checkout/page",
    "../../providers/sandbox",
    "../errors",
  ),
  "src/web/checkout/page.ts": imports("../../domain/charges/model", "../../lib/ids"),
  "src/web/dashboard/app/main.tsx":
    'import type { STATUSES } from "../../../domain/charges/model";\nexport type S = typeof STATUSES;\n',
  "src/ops/backup.ts": imports("../store/sqlite/client", "../config"),
  "src/deps.ts": imports("./store/sqlite/client", "./store/pg", "./providers/sandbox", "./jobs/scheduler"),
  "src/app.ts": imports("./deps", "./http/routes/charges"),
  "src/cli/index.ts": imports("../psp-sim/cli", "../stripe-sim/cli", "../ops/backup", "../deps"),
  "src/main.ts": imports("./app", "./cli"),
  "src/psp-sim/cli.ts": imports("../lib/ids", "../pix/brcode", "../formats/boleto", "../config", "./db"),
  "src/psp-sim/db.ts": 'import { Database } from "bun:sqlite";\nexport const q = "SELECT id FROM cob WHERE id = ?";\n',
  "src/stripe-sim/cli.ts": imports("../lib/ids"),
};

describe("check:layers on the real tree", () => {
  test("passes with the committed baseline", () => {
    expect(checkLayers(ROOT, parseBaseline(readFileSync(baselinePath(ROOT), "utf8")))).toEqual([]);
  });
});

describe("the layer table", () => {
  test("a file outside every layer fails (src/db and src/payments are gone; a new folder needs a rank)", () => {
    expect(
      found(check({ "src/db/client.ts": "export const c = 1;\n", "src/payments/boleto.ts": imports("../lib/ids") })),
    ).toEqual([
      ["src/db/client.ts", "unplaced"],
      ["src/payments/boleto.ts", "unplaced"],
    ]);
  });
});

describe("rule (a): no src/http import below HTTP", () => {
  test("a clean tree (every layer importing only its rank or lower, SQL only in the adapters) passes", () => {
    expect(checkLayers(tree(CLEAN), new Set())).toEqual([]);
  });

  test("fails on a domain file importing an HTTP plugin's type", () => {
    const vs = check({
      "src/domain/charges/create.ts":
        'import type { ApiKeyAuth } from "../../http/plugins/api-key-auth";\nexport type A = ApiKeyAuth;\n',
    });
    expect(found(vs)).toEqual([["src/domain/charges/create.ts", "http-import"]]);
    expect(vs[0]!.detail).toContain("src/http/plugins/api-key-auth");
  });

  test("fails on providers, jobs, adapters and lib importing src/http, by static, re-export and dynamic import", () => {
    expect(
      found(
        check({
          "src/providers/sandbox/boleto.ts":
            'import { ApiError } from "../../http/errors";\nexport const e = ApiError;\n',
          "src/jobs/advance.ts": 'export { ApiError } from "../http/errors";\n',
          "src/domain/ledger/service.ts": 'export const load = () => import("../../http/errors");\n',
          "src/store/pg/errors.ts": imports("../../http/errors"),
          "src/lib/json.ts": imports("../http/errors"),
        }),
      ),
    ).toEqual([
      ["src/domain/ledger/service.ts", "http-import"],
      ["src/jobs/advance.ts", "http-import"],
      ["src/lib/json.ts", "http-import"],
      ["src/providers/sandbox/boleto.ts", "http-import"],
      ["src/store/pg/errors.ts", "http-import"],
    ]);
  });
});

describe("rule (b): no import from a lower layer to a higher one, none between peers", () => {
  test("fails on the domain importing the composition root's Deps type, even type-only (issue 25)", () => {
    const vs = check({
      "src/domain/charges/create.ts": 'import type { Deps } from "../../deps";\nexport type D = Deps;\n',
      "src/domain/charges/expiry.ts": 'type D = import("../../deps").Deps;\nexport const f = (d: D) => d;\n',
    });
    expect(found(vs)).toEqual([
      ["src/domain/charges/create.ts", "upward-import"],
      ["src/domain/charges/expiry.ts", "upward-import"],
    ]);
    expect(vs[0]!.detail).toBe("imports composition root (src/deps.ts), rank 7, from domain, rank 4");
  });

  test("fails on each upward import: domain to providers or jobs, port to domain, config to an adapter, lib to formats, http to the root", () => {
    expect(
      found(
        check({
          "src/domain/charges/create.ts": imports("../../providers/sandbox"),
          "src/domain/charges/jobs.ts": imports("../../jobs/scheduler"),
          "src/store/memory/rate-limits.ts": imports("../../domain/charges/model"),
          "src/store/port/charges.ts": imports("../../store/sqlite/client"),
          "src/config.ts": imports("./store/pg"),
          "src/lib/money.ts": imports("../formats/boleto", "../pix/brcode"),
          "src/http/plugins/auth.ts": imports("../../deps"),
          "src/ops/schema-version.ts": imports("../cli/index"),
        }),
      ),
    ).toEqual([
      ["src/config.ts", "upward-import"],
      ["src/domain/charges/create.ts", "upward-import"],
      ["src/domain/charges/jobs.ts", "upward-import"],
      ["src/http/plugins/auth.ts", "upward-import"],
      ["src/lib/money.ts", "upward-import"],
      ["src/lib/money.ts", "upward-import"],
      ["src/ops/schema-version.ts", "upward-import"],
      ["src/store/memory/rate-limits.ts", "upward-import"],
      ["src/store/port/charges.ts", "upward-import"],
    ]);
  });

  test("fails on peers of rank 5 importing each other: providers, jobs, the SQLite and PostgreSQL adapters", () => {
    expect(
      found(
        check({
          "src/jobs/outcome.ts": imports("../providers/sandbox"),
          "src/providers/sandbox/pix.ts": imports("../../jobs/scheduler"),
          "src/store/pg/import-sqlite.ts": imports("../sqlite/client"),
          "src/store/sqlite/serve.ts": imports("../pg/index"),
        }),
      ),
    ).toEqual([
      ["src/jobs/outcome.ts", "peer-import"],
      ["src/providers/sandbox/pix.ts", "peer-import"],
      ["src/store/pg/import-sqlite.ts", "peer-import"],
      ["src/store/sqlite/serve.ts", "peer-import"],
    ]);
  });

  test("rank 6: HTTP may import web pages; pages and ops import neither HTTP nor each other", () => {
    expect(
      found(
        check({
          "src/web/checkout/card.ts": imports("../../http/errors"),
          "src/web/checkout/links.ts": imports("../../ops/backup"),
          "src/ops/pending.ts": imports("../http/errors", "../web/checkout/page"),
          "src/http/routes/ops.ts": imports("../../ops/backup"),
        }),
      ),
    ).toEqual([
      ["src/http/routes/ops.ts", "peer-import"],
      ["src/ops/pending.ts", "peer-import"],
      ["src/ops/pending.ts", "peer-import"],
      ["src/web/checkout/card.ts", "peer-import"],
      ["src/web/checkout/links.ts", "peer-import"],
    ]);
  });

  test("the simulators import only ranks 0-2 and themselves, and only the composition root imports them", () => {
    const vs = check({
      "src/psp-sim/setup.ts": imports("../domain/charges/model", "../stripe-sim/cli", "./db"),
      "src/stripe-sim/core.ts": imports("../store/port"),
      "src/domain/charges/sandbox.ts": imports("../../psp-sim/cli"),
      "src/http/routes/sim.ts": imports("../../stripe-sim/cli"),
    });
    expect(found(vs)).toEqual([
      ["src/domain/charges/sandbox.ts", "simulator-import"],
      ["src/http/routes/sim.ts", "simulator-import"],
      ["src/psp-sim/setup.ts", "simulator-import"],
      ["src/psp-sim/setup.ts", "simulator-import"],
      ["src/stripe-sim/core.ts", "simulator-import"],
    ]);
  });

  test("resolves folder imports to their index file and counts one import of a file once", () => {
    const vs = check({
      "src/domain/charges/boot.ts":
        'import type { A } from "../../store/pg";\nimport { b } from "../../store/pg/index";\nexport type X = A;\n',
    });
    expect(vs.map((v) => v.detail)).toEqual([
      "imports pg adapter (src/store/pg/index.ts), rank 5, from domain, rank 4",
    ]);
  });
});

describe("rule (d): no circle of imports crosses folders", () => {
  test("a circle inside one folder is allowed", () => {
    expect(
      check({
        "src/domain/charges/a.ts": imports("./b"),
        "src/domain/charges/b.ts": 'import type { X } from "./a";\nexport type Y = X;\n',
      }),
    ).toEqual([]);
  });

  test("fails on a circle between two folders of one layer, type-only imports included, with an example path", () => {
    const vs = check({
      "src/domain/payments/create.ts": imports("../charges/create"),
      "src/domain/charges/create.ts": 'import type { P } from "../payments/create";\nexport type Q = P;\n',
    });
    expect(found(vs)).toEqual([["src/domain/charges/create.ts", "cross-folder-cycle"]]);
    expect(vs[0]!.detail).toBe(
      "a circle of 2 files in 2 folders, e.g. src/domain/charges/create.ts -> src/domain/payments/create.ts -> src/domain/charges/create.ts; its files: src/domain/charges/create.ts, src/domain/payments/create.ts",
    );
  });

  test("reports the whole component once, beside the upward import that closes it", () => {
    const vs = check({
      "src/domain/charges/create.ts": imports("../../deps"),
      "src/domain/charges/model.ts": imports("./create"),
    });
    expect(found(vs)).toEqual([
      ["src/deps.ts", "cross-folder-cycle"],
      ["src/domain/charges/create.ts", "upward-import"],
    ]);
    const cycle = vs.find((v) => v.rule === "cross-folder-cycle")!.detail;
    // deps -> jobs/scheduler -> domain/charges/service -> model -> create -> deps; app and cli reach deps but are not
    // in the circle.
    expect(cycle).toContain(
      "its files: src/deps.ts, src/domain/charges/create.ts, src/domain/charges/model.ts, src/domain/charges/service.ts, src/jobs/scheduler.ts",
    );
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
    "src/store/memory/rate-limits.ts": 'export const Q = "UPDATE windows SET n = n + 1";\n',
  };

  test("fails on a repository file left in the domain: only the adapter folders may hold SQL", () => {
    expect(
      found(check({ "src/domain/charges/repo.ts": 'export const q = "SELECT id FROM transactions WHERE id = ?";\n' })),
    ).toEqual([["src/domain/charges/repo.ts", "database-outside-storage"]]);
  });

  test("fails on each kind of new offender: bun:sqlite type, drizzle, the table schema, the raw driver, an SQL string", () => {
    expect(found(check(OFFENDERS))).toEqual(
      Object.keys(OFFENDERS)
        .sort()
        .map((f) => [f, "database-outside-storage"]),
    );
  });

  test("src/db is no longer an adapter: SQL there fails (and the file has no layer)", () => {
    expect(found(check({ "src/db/open.ts": 'export const q = "PRAGMA journal_mode = WAL";\n' }))).toEqual([
      ["src/db/open.ts", "database-outside-storage"],
      ["src/db/open.ts", "unplaced"],
    ]);
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
    expect(
      check({ "src/web/copy.ts": 'export const hint = "Select one from the list; update your profile set up.";\n' }),
    ).toEqual([]);
  });
});

describe("the baseline file", () => {
  test("ignores comments and blank lines", () => {
    expect([...parseBaseline("# header\n\nsrc/a.ts  # why\nsrc/b.ts\n")]).toEqual(["src/a.ts", "src/b.ts"]);
  });
});
