/**
 * Copies an embedded SQLite database into an empty PostgreSQL one (`cofre import-sqlite DIR`), so
 * that a merchant switching to PostgreSQL keeps accounts, keys, charges, the ledger, webhooks,
 * MED cases and history (docs/deploy.md "When to switch").
 *
 * One PostgreSQL transaction: every table, then the checks below, then the commit; any failure
 * rolls all of it back. What is not copied, and why:
 * - the payment aggregates (payment_daily_stats, payment_pay_time_hist, ..._monthly): PostgreSQL's
 *   triggers (db/migrations-pg/0004) build them from the copied transactions; the check compares
 *   them with SQLite's, summed over shards;
 * - rate_limit_windows and login_throttle: counters of the current minute or quarter hour.
 * The request log is read from `request-log.db` beside `cofre.db` (where `serve` writes it) and
 * from `cofre.db`'s own table, in time order, numbered anew.
 *
 * Checks before the commit: every copied table holds as many rows as in SQLite, the aggregates
 * agree, and the caller's `verify` (the ledger check) passes. Throws ImportRefused, with a message
 * for the merchant, when the target is not empty, the SQLite schema is not this version's (older:
 * migrate it first; newer: a table or column would be lost), or a check fails.
 */
import { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { existsSync } from "node:fs";

/** Why an import did not happen (nothing was written). */
export class ImportRefused extends Error {}

/** Tables PostgreSQL builds itself from the copied rows (triggers), compared instead of copied. */
const AGGREGATES: Record<string, string[]> = {
  payment_daily_stats: ["account_id", "livemode", "day", "currency", "method", "status", "paid"],
  payment_pay_time_hist: ["account_id", "livemode", "day", "currency", "bucket"],
  payment_pay_time_hist_monthly: ["account_id", "livemode", "month", "currency", "bucket"],
};
/** Counters of the moment, left behind. */
const EPHEMERAL = new Set(["rate_limit_windows", "login_throttle"]);
/** Rows a start of `cofre serve` may already have written to the target: replaced by SQLite's. */
const WRITTEN_AT_START = new Set(["jobs", "shared_state"]);
/** Tables whose rows others reference (foreign keys): copied first. */
const FIRST = ["accounts", "ledger_entries"];
/** Bind parameters per INSERT statement (PostgreSQL allows 65,535). */
const PARAMS_PER_STATEMENT = 30_000;

/** Rows copied per table (`request_logs` included), for the command's report. */
export type ImportCounts = Record<string, number>;

interface Column {
  name: string;
  type: "boolean" | "bigint" | "text";
  /** GENERATED ... AS IDENTITY: its sequence is moved past the copied values. */
  identity: boolean;
}

/**
 * Copies `<dir>/cofre.db` (which must exist) and `<dir>/request-log.db` when present into the migrated, empty
 * PostgreSQL database behind `pool`. `verify(tx)` runs inside the transaction after the copy and
 * returns problems found (empty = fine), e.g. the ledger check over `tx`.
 */
export async function importSqlite(
  pool: SQL,
  dir: string,
  verify: (tx: SQL) => Promise<string[]>,
): Promise<ImportCounts> {
  const source = new Database(`${dir}/cofre.db`, { readonly: true });
  try {
    // One read transaction: the copy is one moment of the source even if something still writes to it.
    source.exec("begin");
    const result = (await pool.begin(async (tx) => {
      const t = tx as unknown as SQL;
      const tables = await targetTables(t);
      refuseUnknownTables(source, tables);
      const copied = tables.filter((name) => !(name in AGGREGATES) && !EPHEMERAL.has(name) && name !== "request_logs");
      await refuseUnlessEmpty(t, copied);
      const counts: ImportCounts = {};
      for (const name of copied) counts[name] = await copyTable(t, source, name);
      counts.request_logs = await copyRequestLogs(t, source, dir);
      const problems = [...(await compareAggregates(t, source)), ...(await verify(t))];
      if (problems.length > 0)
        throw new ImportRefused(`the copy does not check out, nothing was written:\n- ${problems.join("\n- ")}`);
      return counts;
    })) as ImportCounts;
    return result;
  } finally {
    source.close();
  }
}

/** Public tables of the target, those referenced by foreign keys first. */
async function targetTables(t: SQL): Promise<string[]> {
  const rows =
    (await t`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`) as {
      table_name: string;
    }[];
  const names = rows.map((r) => r.table_name);
  return [...FIRST.filter((n) => names.includes(n)), ...names.filter((n) => !FIRST.includes(n))];
}

/** A SQLite table this version has no PostgreSQL table for would be lost: the SQLite database is newer than this cofre. */
function refuseUnknownTables(source: Database, tables: string[]): void {
  const names = source
    .query(
      `select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'`,
    )
    .all() as { name: string }[];
  const unknown = names.map((r) => r.name).filter((n) => !tables.includes(n));
  if (unknown.length > 0)
    throw new ImportRefused(
      `the SQLite database has tables this version of cofre does not know (${unknown.join(", ")}): import with the version that wrote it`,
    );
}

async function refuseUnlessEmpty(t: SQL, tables: string[]): Promise<void> {
  for (const name of tables) {
    const [row] = (await t`select exists (select 1 from ${t(name)}) as any`) as { any: boolean }[];
    if (!row!.any) continue;
    if (!WRITTEN_AT_START.has(name))
      throw new ImportRefused(
        `the PostgreSQL database is not empty (table ${name} has rows): import into a new database`,
      );
    await t`delete from ${t(name)}`;
  }
}

async function columnsOf(t: SQL, table: string): Promise<Column[]> {
  const rows = (await t`select column_name, data_type, is_identity from information_schema.columns
    where table_schema = 'public' and table_name = ${table} order by ordinal_position`) as {
    column_name: string;
    data_type: string;
    is_identity: string;
  }[];
  return rows.map((r) => {
    if (r.data_type !== "boolean" && r.data_type !== "bigint" && r.data_type !== "text")
      throw new Error(`${table}.${r.column_name}: no conversion for ${r.data_type}`);
    return { name: r.column_name, type: r.data_type, identity: r.is_identity === "YES" };
  });
}

/** SQLite's value as PostgreSQL's column takes it (SQLite keeps booleans as 0/1). */
function converted(value: unknown, type: Column["type"]): unknown {
  if (value === null || value === undefined) return null;
  if (type === "boolean") return value === 1 || value === true || value === 1n;
  return value;
}

/**
 * Inserts the rows `rows` yields (objects keyed by column) into `table`, in statements under the
 * parameter limit, so that a large table never sits in memory whole. `onConflict` ends each
 * statement (e.g. `on conflict (id) do nothing`). Returns the rows read.
 */
async function insertRows(
  t: SQL,
  table: string,
  columns: Column[],
  rows: Iterable<Record<string, unknown>>,
  onConflict = "",
): Promise<number> {
  const per = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / columns.length));
  const names = columns.map((c) => c.name);
  let read = 0;
  let chunk: Record<string, unknown>[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    await t`insert into ${t(table)} ${t(chunk, ...names)} ${t.unsafe(onConflict)}`;
    chunk = [];
  };
  for (const r of rows) {
    chunk.push(Object.fromEntries(columns.map((c) => [c.name, converted(r[c.name], c.type)])));
    read++;
    if (chunk.length === per) await flush();
  }
  await flush();
  return read;
}

async function copyTable(t: SQL, source: Database, table: string): Promise<number> {
  const columns = await columnsOf(t, table);
  const have = new Set(
    (source.query(`select name from pragma_table_info(?)`).all(table) as { name: string }[]).map((r) => r.name),
  );
  const missing = columns.filter((c) => !have.has(c.name)).map((c) => c.name);
  const unknown = [...have].filter((n) => !columns.some((c) => c.name === n));
  if (unknown.length > 0)
    throw new ImportRefused(
      `the SQLite database has columns this version of cofre does not know (${table}: ${unknown.join(", ")}): import with the version that wrote it`,
    );
  if (have.size === 0 || missing.length > 0)
    throw new ImportRefused(
      `the SQLite database is not at this version's schema (${table}: ${have.size === 0 ? "no such table" : `no column ${missing.join(", ")}`}); ` +
        "run `cofre migrate` on it first (COFRE_DATA_DIR set to its folder, COFRE_DATABASE_URL unset)",
    );
  const read = await insertRows(
    t,
    table,
    columns,
    source.query(`select * from "${table}"`).iterate() as Iterable<Record<string, unknown>>,
  );
  for (const c of columns) if (c.identity) await resetIdentity(t, table, c.name);
  const [count] = (await t`select count(*)::int8 as n from ${t(table)}`) as { n: string | number }[];
  if (Number(count!.n) !== read) throw new ImportRefused(`${table}: ${read} rows read, ${count!.n} written`);
  return read;
}

/** Moves an identity column's sequence past the copied values, so the next insert does not collide. */
async function resetIdentity(t: SQL, table: string, column: string): Promise<void> {
  await t.unsafe(
    `select setval(pg_get_serial_sequence('"${table}"', '${column}'), coalesce((select max("${column}") from "${table}"), 0) + 1, false)`,
  );
}

/**
 * The request log: `cofre.db`'s own table and `request-log.db`'s (attached read-only when present),
 * oldest first, numbered anew (`seq`); an id in both is copied once. Returns the rows copied.
 */
async function copyRequestLogs(t: SQL, source: Database, dir: string): Promise<number> {
  const columns = (await columnsOf(t, "request_logs")).filter((c) => c.name !== "seq");
  const list = columns.map((c) => `"${c.name}"`).join(", ");
  const parts: string[] = [];
  const has = (schema: string) =>
    source.query(`select 1 from ${schema}.sqlite_master where type = 'table' and name = 'request_logs'`).get() !== null;
  if (has("main")) parts.push(`select ${list}, seq from main.request_logs`);
  const file = `${dir}/request-log.db`;
  if (existsSync(file)) {
    source.query("attach database ? as logs").run(file);
    if (has("logs")) parts.push(`select ${list}, seq from logs.request_logs`);
  }
  if (parts.length === 0) return 0;
  const rows = source.query(`${parts.join(" union all ")} order by created_at, seq`).iterate() as Iterable<
    Record<string, unknown>
  >;
  await insertRows(t, "request_logs", columns, rows, "on conflict (id) do nothing");
  await resetIdentity(t, "request_logs", "seq");
  const [count] = (await t`select count(*)::int8 as n from request_logs`) as { n: string | number }[];
  return Number(count!.n);
}

/** Differences between SQLite's aggregate rows and the ones PostgreSQL's triggers built (summed over shards). */
async function compareAggregates(t: SQL, source: Database): Promise<string[]> {
  const problems: string[] = [];
  for (const [table, key] of Object.entries(AGGREGATES)) {
    const columns = (await columnsOf(t, table)).map((c) => c.name).filter((c) => !key.includes(c) && c !== "shard");
    const sums = columns.map((c) => `sum("${c}") as "${c}"`).join(", ");
    const keys = key.map((c) => `"${c}"`).join(", ");
    const text = (r: Record<string, unknown>) =>
      [...key, ...columns].map((c) => (typeof r[c] === "boolean" ? Number(r[c]) : String(r[c]))).join("|");
    const grouped = `select ${keys}, ${sums} from "${table}" group by ${keys}`;
    // Cells whose sums are all 0 carry nothing (a subtraction can leave such rows on either side).
    const nonZero = (r: Record<string, unknown>) => columns.some((c) => Number(r[c]) !== 0);
    const fromSqlite = new Set((source.query(grouped).all() as Record<string, unknown>[]).filter(nonZero).map(text));
    const fromPg = new Set(((await t.unsafe(grouped)) as Record<string, unknown>[]).filter(nonZero).map(text));
    const onlySqlite = [...fromSqlite].filter((r) => !fromPg.has(r));
    const onlyPg = [...fromPg].filter((r) => !fromSqlite.has(r));
    if (onlySqlite.length + onlyPg.length > 0)
      problems.push(`${table}: ${onlySqlite.length} cells differ from SQLite's (e.g. ${onlySqlite[0] ?? onlyPg[0]})`);
  }
  return problems;
}
