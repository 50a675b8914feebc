// own-database: compares the two schemas without a server; the same whatever the run (run once, by `bun run test`)
/**
 * db/schema-pg (pg-core, generated) agrees with db/schema (sqlite-core, the source) without a
 * server: every table, column (name, nullability, default, type family, identity), primary key,
 * index (columns, uniqueness, partial predicate) and foreign key, and nothing extra; doctored
 * copies prove the comparison catches each kind of drift (postgres-study.md §6).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as sqliteSchema from "../../db/schema";
import * as pgSchema from "../../db/schema-pg";
import { renderPgSchema } from "../../scripts/gen-pg-schema";
import { EMBEDDED } from "../../src/store/sqlite/migrations";
import { diffShapes, pgShape, sqliteShape, tablesOf, type SchemaShape } from "./schema-shape";

const ROOT = join(import.meta.dir, "../..");
// Doctored copies live inside the repository so that their `drizzle-orm` imports resolve.
const scratch = mkdtempSync(join(import.meta.dir, ".doctored-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const expected = sqliteShape(tablesOf(sqliteSchema));
const actual = pgShape(tablesOf(pgSchema));

let copies = 0;
/** A copy of `dir` (a schema folder) with `find` replaced by `replace` once in `file`. */
function doctoredCopy(dir: string, file: string, find: string, replace: string): string {
  const to = join(scratch, `copy${++copies}`);
  cpSync(join(ROOT, dir), to, { recursive: true });
  const text = readFileSync(join(to, file), "utf8");
  expect(text.split(find).length - 1).toBe(1); // the edit applies exactly once
  writeFileSync(join(to, file), text.replace(find, replace));
  return to;
}

const importShape = async (dir: string, shape: (t: ReturnType<typeof tablesOf>) => SchemaShape) =>
  shape(tablesOf((await import(join(dir, "index.ts"))) as Record<string, unknown>));

describe("db/schema-pg against db/schema", () => {
  test("has every table, column, primary key, index and foreign key of db/schema and nothing else", () => {
    expect(diffShapes(expected, actual)).toEqual([]);
  });

  test("covers every table the SQLite migrations create (an oracle independent of drizzle's table objects)", () => {
    const db = new Database(":memory:");
    for (const text of Object.values(EMBEDDED)) db.run(text.replaceAll("--> statement-breakpoint", ""));
    const tables = db
      .query<{ name: string }, []>(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
      )
      .all()
      .map((r) => r.name);
    db.close();
    expect(tables.length).toBeGreaterThanOrEqual(30);
    expect(Object.keys(actual).sort()).toEqual(tables);
  });

  test("maps the types as the study says: integers to bigint, booleans to boolean, AUTOINCREMENT to identity", () => {
    expect(actual.accounts!.columns.created_at).toEqual({
      type: "int64",
      notNull: true,
      default: null,
      identity: false,
    });
    expect(actual.accounts!.columns.payer_lock_enabled).toEqual({
      type: "boolean",
      notNull: true,
      default: "false",
      identity: false,
    });
    expect(actual.transactions!.columns.metadata).toEqual({
      type: "text",
      notNull: true,
      default: '"{}"',
      identity: false,
    });
    expect(actual.ledger_lines!.columns.id).toEqual({ type: "int64", notNull: true, default: null, identity: true });
    expect(actual.transactions!.indexes.tx_waiting_expiry_idx).toEqual({
      columns: ["expires_at"],
      unique: false,
      where: "status in ('PENDING', 'WAITING_PAYMENT') and expires_at is not null",
    });
  });

  test("is exactly what scripts/gen-pg-schema.ts writes from db/schema (re-run it after a schema change)", async () => {
    const rendered = await renderPgSchema();
    const onDisk = readdirSync(join(ROOT, "db/schema-pg")).sort();
    expect([...rendered.keys()].sort()).toEqual(onDisk);
    for (const [file, text] of rendered) expect(readFileSync(join(ROOT, "db/schema-pg", file), "utf8")).toBe(text);
  });
});

describe("the comparison catches drift in a doctored copy of db/schema-pg", () => {
  const cases: [string, string, string, string, string[]][] = [
    ["a dropped column", "accounts.ts", `    taxId: text("tax_id"),\n`, "", ["accounts.tax_id: column missing"]],
    [
      "an extra column",
      "accounts.ts",
      `    taxId: text("tax_id"),\n`,
      `    taxId: text("tax_id"),\n    nickname: text("nickname"),\n`,
      ["accounts.nickname: column not in the expected schema"],
    ],
    [
      "a lost NOT NULL",
      "accounts.ts",
      `name: text("name").notNull(),`,
      `name: text("name"),`,
      ["accounts.name: notNull false, expected true"],
    ],
    [
      "a changed default",
      "accounts.ts",
      `"default_expires_in", { mode: "number" }).notNull().default(3600)`,
      `"default_expires_in", { mode: "number" }).notNull().default(60)`,
      ['accounts.default_expires_in: default "60", expected "3600"'],
    ],
    [
      "a 32-bit integer where epoch ms need bigint",
      "accounts.ts",
      `pixFeeBps: bigint("pix_fee_bps", { mode: "number" })`,
      `pixFeeBps: integer("pix_fee_bps")`,
      ['accounts.pix_fee_bps: type "PgInteger", expected "int64"'],
    ],
    [
      "a lost identity",
      "ledger.ts",
      ".primaryKey().generatedByDefaultAsIdentity()",
      ".primaryKey()",
      ["ledger_lines.id: identity false, expected true"],
    ],
    [
      "a unique index made plain",
      "accounts.ts",
      `uniqueIndex("users_email_uq")`,
      `index("users_email_uq")`,
      ["users: index users_email_uq unique false, expected true"],
    ],
    [
      "reordered index columns",
      "charges.ts",
      `index("tx_account_created_idx").on(t.accountId, t.livemode, t.createdAt)`,
      `index("tx_account_created_idx").on(t.livemode, t.accountId, t.createdAt)`,
      [
        'transactions: index tx_account_created_idx columns ["livemode","account_id","created_at"], expected ["account_id","livemode","created_at"]',
      ],
    ],
    [
      "a partial index made total",
      "charges.ts",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: schema source text the test edits, not a template
      ".on(t.pixTxid).where(sql`${t.pixTxid} is not null`)",
      ".on(t.pixTxid)",
      ['transactions: index tx_txid_uq where null, expected "pix_txid is not null"'],
    ],
    [
      "a changed predicate",
      "charges.ts",
      "in ('PENDING', 'WAITING_PAYMENT')",
      "in ('PENDING')",
      [
        `transactions: index tx_waiting_expiry_idx where "status in ('PENDING') and expires_at is not null", expected "status in ('PENDING', 'WAITING_PAYMENT') and expires_at is not null"`,
      ],
    ],
    [
      "an extra index",
      "charges.ts",
      `    index("tx_account_created_idx")`,
      `    index("tx_extra_idx").on(t.currency),\n    index("tx_account_created_idx")`,
      ["transactions: index tx_extra_idx not in the expected schema"],
    ],
    [
      "a shortened composite primary key",
      "webhooks.ts",
      "primaryKey({ columns: [t.accountId, t.livemode] })",
      "primaryKey({ columns: [t.accountId] })",
      ['webhook_transaction_secrets: primary key ["account_id"], expected ["account_id","livemode"]'],
    ],
    [
      "a dropped foreign key",
      "ledger.ts",
      `    foreignKey({ name: "ledger_lines_entry_id_ledger_entries_id_fk", columns: [t.entryId], foreignColumns: [ledgerEntries.id] }),\n`,
      "",
      ["ledger_lines: foreign key ledger_lines_entry_id_ledger_entries_id_fk missing"],
    ],
    ["a missing table", "index.ts", `export * from "./events";\n`, "", ["events: table missing"]],
  ];

  test.each(cases)("reports %s", async (_what, file, find, replace, drift) => {
    const dir = doctoredCopy("db/schema-pg", file, find, replace);
    // The 32-bit case needs pg-core's `integer` imported as well.
    if (replace.includes("integer("))
      writeFileSync(
        join(dir, file),
        readFileSync(join(dir, file), "utf8").replace("import { bigint,", "import { integer, bigint,"),
      );
    expect(diffShapes(expected, await importShape(dir, pgShape))).toEqual(drift);
  });

  test("a column added to db/schema but not generated is reported, and re-running the generator clears it", async () => {
    const source = doctoredCopy(
      "db/schema",
      "accounts.ts",
      `  taxId: text("tax_id"),\n`,
      `  taxId: text("tax_id"),\n  nickname: text("nickname").notNull().default(""),\n`,
    );
    const grown = await importShape(source, sqliteShape);
    expect(diffShapes(grown, actual)).toEqual(["accounts.nickname: column missing"]);

    const regenerated = join(scratch, "regenerated");
    cpSync(join(ROOT, "db/schema-pg"), regenerated, { recursive: true });
    for (const [file, text] of await renderPgSchema(source)) writeFileSync(join(regenerated, file), text);
    const after = await importShape(regenerated, pgShape);
    expect(after.accounts!.columns.nickname).toEqual({ type: "text", notNull: true, default: '""', identity: false });
    expect(diffShapes(grown, after)).toEqual([]);
  });
});
