// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * The PostgreSQL migrations on a real server (test/support/pg.ts): the embedded list is what
 * drizzle-kit generated, they apply to an empty database, re-applying (also from two instances at
 * once) is a no-op, and the live catalog (information_schema, pg_index, pg_constraint) matches
 * db/schema table by table. Partial-index predicates are compared as PostgreSQL itself prints the
 * SQLite predicate (a probe index on a copy of the table), not by rewriting text in the test.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { readdirSync } from "node:fs";
import { readMigrationFiles } from "drizzle-orm/migrator";
import * as sqliteSchema from "../../db/schema";
import { EMBEDDED_PG, embeddedPgMigrations, runPgMigrations } from "../../src/store/pg/migrations";
import { PG_START_TIMEOUT, pgDatabase, type PgDatabase } from "../support/pg";
import { diffShapes, sqliteShape, tablesOf, type SchemaShape, type TableShape } from "./schema-shape";

const expected = sqliteShape(tablesOf(sqliteSchema));
const TAGS = embeddedPgMigrations().map((m) => m.tag);

/** Column default as the shape writes it (JSON of the literal); unknown forms are kept raw so they differ. */
function defaultOf(raw: string | null): string | null {
  if (raw === null) return null;
  const quoted = /^'((?:[^']|'')*)'::text$/.exec(raw);
  if (quoted) return JSON.stringify(quoted[1]!.replaceAll("''", "'"));
  if (/^-?\d+$/.test(raw)) return JSON.stringify(Number(raw));
  if (raw === "true" || raw === "false") return raw;
  return `raw:${raw}`;
}

const TYPES: Record<string, string> = { bigint: "int64", boolean: "boolean", text: "text" };

/** The shape of the `public` schema of a live database, read from its catalog. */
async function liveShape(sql: SQL): Promise<SchemaShape> {
  const out: SchemaShape = {};
  const table = (name: string): TableShape =>
    (out[name] ??= { columns: {}, primaryKey: [], indexes: {}, foreignKeys: {} });
  const columns = await sql`
    select table_name, column_name, data_type, is_nullable, column_default, is_identity
    from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`;
  for (const c of columns) {
    table(c.table_name).columns[c.column_name] = {
      type: TYPES[c.data_type] ?? c.data_type,
      notNull: c.is_nullable === "NO",
      default: defaultOf(c.column_default),
      identity: c.is_identity === "YES",
    };
  }
  const indexes = await sql`
    select t.relname as table, i.relname as name, x.indisunique as unique, x.indisprimary as primary,
           pg_get_expr(x.indpred, x.indrelid) as predicate,
           (select string_agg(a.attname, ',' order by k.ord) from unnest(x.indkey) with ordinality k(attnum, ord)
              join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum) as columns
    from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = t.relnamespace where n.nspname = 'public'`;
  for (const i of indexes) {
    if (i.primary) table(i.table).primaryKey = i.columns.split(",");
    else table(i.table).indexes[i.name] = { columns: i.columns.split(","), unique: i.unique, where: i.predicate };
  }
  const fks = await sql`
    select c.conname as name, t.relname as table, f.relname as foreign_table,
           (select string_agg(a.attname, ',' order by k.ord) from unnest(c.conkey) with ordinality k(attnum, ord)
              join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum) as columns,
           (select string_agg(a.attname, ',' order by k.ord) from unnest(c.confkey) with ordinality k(attnum, ord)
              join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum) as foreign_columns
    from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_class f on f.oid = c.confrelid
    join pg_namespace n on n.oid = t.relnamespace where c.contype = 'f' and n.nspname = 'public'`;
  for (const k of fks) {
    table(k.table).foreignKeys[k.name] = {
      columns: k.columns.split(","),
      foreignTable: k.foreign_table,
      foreignColumns: k.foreign_columns.split(","),
    };
  }
  return out;
}

/** `expected` with each partial-index predicate as PostgreSQL prints it after parsing the SQLite text. */
async function withPgPredicates(sql: SQL, shape: SchemaShape): Promise<SchemaShape> {
  const copy = structuredClone(shape);
  for (const [name, t] of Object.entries(copy)) {
    for (const idx of Object.values(t.indexes)) {
      if (idx.where === null) continue;
      idx.where = await sql.begin(async (tx) => {
        await tx.unsafe(`create temp table probe (like "${name}") on commit drop`);
        await tx.unsafe(
          `create index probe_idx on probe (${idx.columns.map((c) => `"${c}"`).join(", ")}) where ${idx.where}`,
        );
        const [row] =
          await tx`select pg_get_expr(x.indpred, x.indrelid) as predicate from pg_index x join pg_class i on i.oid = x.indexrelid where i.relname = 'probe_idx'`;
        return row.predicate as string;
      });
    }
  }
  return copy;
}

describe("embedded PostgreSQL migrations", () => {
  test("the embedded list equals what drizzle-kit generated in db/migrations-pg", () => {
    const fromFolder = readMigrationFiles({ migrationsFolder: "db/migrations-pg" });
    expect(fromFolder.length).toBeGreaterThan(0);
    expect(
      embeddedPgMigrations().map((m) => ({ sql: m.statements, folderMillis: m.folderMillis, hash: m.hash })),
    ).toEqual(fromFolder.map((m) => ({ sql: m.sql, folderMillis: m.folderMillis, hash: m.hash })));
  });

  test("every SQL file of db/migrations-pg is embedded", () => {
    const files = readdirSync("db/migrations-pg")
      .filter((f) => f.endsWith(".sql"))
      .map((f) => f.replace(/\.sql$/, ""))
      .sort();
    expect(Object.keys(EMBEDDED_PG).sort()).toEqual(files);
  });
});

describe("applying the migrations to a server", () => {
  let db: PgDatabase;
  beforeAll(async () => {
    db = await pgDatabase({ empty: true });
  }, PG_START_TIMEOUT);
  afterAll(() => db.drop());

  const publicTables = async () =>
    (
      await db.sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`
    ).map((r: { table_name: string }) => r.table_name);
  const recorded = async () =>
    (await db.sql`select hash, created_at from drizzle.__drizzle_migrations order by id`).map(
      (r: { hash: string; created_at: string }) => [r.hash, Number(r.created_at)],
    );

  test("creates every table of db/schema in an empty database and records each migration", async () => {
    expect(await publicTables()).toEqual([]);
    expect(await runPgMigrations(db.sql)).toEqual(TAGS);
    expect(await publicTables()).toEqual(Object.keys(expected).sort());
    expect(await recorded()).toEqual(embeddedPgMigrations().map((m) => [m.hash, m.folderMillis]));
  });

  test("re-applying is a no-op: nothing applied, nothing recorded, the catalog unchanged", async () => {
    const before = await liveShape(db.sql);
    expect(await runPgMigrations(db.sql)).toEqual([]);
    expect(await recorded()).toHaveLength(TAGS.length);
    expect(await liveShape(db.sql)).toEqual(before);
  });
});

describe("two instances starting at once", () => {
  let db: PgDatabase;
  let other: SQL;
  beforeAll(async () => {
    db = await pgDatabase({ empty: true });
    other = new SQL({ url: db.url, max: 1 });
  }, PG_START_TIMEOUT);
  afterAll(async () => {
    await other.close();
    await db.drop();
  });

  test("apply each migration once between them", async () => {
    const [a, b] = await Promise.all([runPgMigrations(db.sql), runPgMigrations(other)]);
    expect([a, b].sort((x, y) => y.length - x.length)).toEqual([TAGS, []]);
    const [row] = await db.sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(row.n).toBe(TAGS.length);
  });
});

describe("the live catalog of a migrated database", () => {
  let db: PgDatabase;
  let live: SchemaShape;
  let want: SchemaShape;
  beforeAll(async () => {
    db = await pgDatabase();
    live = await liveShape(db.sql);
    want = await withPgPredicates(db.sql, expected);
  }, PG_START_TIMEOUT);
  afterAll(() => db.drop());

  test("holds no table that db/schema lacks", () => {
    expect(Object.keys(live).filter((t) => !(t in expected))).toEqual([]);
  });

  test.each(Object.keys(expected).sort())(
    "matches db/schema for %s (columns, primary key, indexes, foreign keys)",
    (name) => {
      expect(live[name]).toBeDefined();
      expect(diffShapes({ [name]: want[name]! }, { [name]: live[name]! })).toEqual([]);
    },
  );

  test("prints the partial predicates as PostgreSQL parses them (the probe is not an echo of the live index)", () => {
    expect(live.transactions!.indexes.tx_txid_uq!.where).toBe("(pix_txid IS NOT NULL)");
    expect(want.transactions!.indexes.tx_waiting_expiry_idx!.where).toBe(
      live.transactions!.indexes.tx_waiting_expiry_idx!.where,
    );
    expect(want.transactions!.indexes.tx_waiting_expiry_idx!.where).toContain("'WAITING_PAYMENT'");
  });

  test("gives a row inserted with only its required columns db/schema's defaults, an identity and full epoch ms", async () => {
    await db.sql`insert into accounts (id, name, created_at) values ('acct_1', 'Loja', ${1_795_501_753_626})`;
    const [a] =
      await db.sql`select payer_lock_enabled, default_expires_in, velocity_window_seconds, created_at from accounts where id = 'acct_1'`;
    expect({
      ...a,
      created_at: Number(a.created_at),
      default_expires_in: Number(a.default_expires_in),
      velocity_window_seconds: Number(a.velocity_window_seconds),
    }).toEqual({
      payer_lock_enabled: false,
      default_expires_in: 3600,
      velocity_window_seconds: 3600,
      created_at: 1_795_501_753_626,
    });
    await db.sql`insert into ledger_entries (id, account_id, livemode, currency, kind, cause_kind, cause_id, idempotency_key, created_at)
                 values ('le_1', 'acct_1', false, 'BRL', 'charge_payment', 'charge', 'c1', 'charge_payment:c1', 0)`;
    const lines =
      await db.sql`insert into ledger_lines (entry_id, account_id, livemode, currency, ledger_account, amount)
                 values ('le_1', 'acct_1', false, 'BRL', 'available', 100), ('le_1', 'acct_1', false, 'BRL', 'external_payer', -100) returning id`;
    expect(lines.map((r: { id: string | number }) => Number(r.id))).toEqual([1, 2]);
  });

  test("refuses a second transaction with the same Pix txid but any number without one (partial unique index)", async () => {
    const row = (id: string, txid: string | null) => ({
      id,
      account_id: "acct_1",
      livemode: false,
      amount: 100,
      currency: "BRL",
      status: "WAITING_PAYMENT",
      payment_methods: '["PIX"]',
      origin: "charges",
      pix_txid: txid,
      created_at: 0,
      updated_at: 0,
    });
    await db.sql`insert into transactions ${db.sql(row("t1", null))}`;
    await db.sql`insert into transactions ${db.sql(row("t2", null))}`;
    await db.sql`insert into transactions ${db.sql(row("t3", "TXID1"))}`;
    await expect(db.sql`insert into transactions ${db.sql(row("t4", "TXID1"))}`).rejects.toThrow(/tx_txid_uq/);
    const [n] = await db.sql`select count(*)::int as n from transactions`;
    expect(n.n).toBe(3);
  });
});

describe("a catalog that drifted from db/schema", () => {
  let db: PgDatabase;
  beforeAll(async () => {
    db = await pgDatabase();
  }, PG_START_TIMEOUT);
  afterAll(() => db.drop());

  test("is reported line by line (the live comparison can fail)", async () => {
    await db.sql.unsafe(`
      alter table accounts alter column name drop not null;
      alter table accounts alter column pix_fee_bps type integer;
      alter table jobs alter column state set default 'dead';
      drop index tx_txid_uq;
      create unique index tx_txid_uq on transactions (pix_txid);
      alter table sessions add column note text;
      create table stray (id text primary key)`);
    const want = await withPgPredicates(db.sql, expected);
    expect(diffShapes(want, await liveShape(db.sql))).toEqual([
      "accounts.name: notNull false, expected true",
      'accounts.pix_fee_bps: type "integer", expected "int64"',
      'jobs.state: default "\\"dead\\"", expected "\\"queued\\""',
      "sessions.note: column not in the expected schema",
      "stray: table not in the expected schema",
      'transactions: index tx_txid_uq where null, expected "(pix_txid IS NOT NULL)"',
    ]);
  });
});
