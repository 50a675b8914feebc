/**
 * A real PostgreSQL for tests (postgres-study.md §4): ONE throwaway cluster per test process
 * (loopback port picked free, socket and data in a temp folder, fsync/synchronous_commit/
 * full_page_writes off, trust auth, superuser `cofre`, owned by the `postgres` user: as root every
 * server command runs through `runuser -u postgres --`, since PostgreSQL refuses root), a template
 * database migrated once with the embedded migrations, and a fresh database per caller
 * (`CREATE DATABASE ... TEMPLATE cofre_template`, ~70 ms). The cluster stops at process exit.
 * PostgreSQL missing is a failure naming the install command, never a skip.
 *
 *   let db: PgDatabase;                      // { name, url, sql, drop() }
 *   beforeAll(async () => { db = await pgDatabase(); }, PG_START_TIMEOUT);
 *   afterAll(() => db.drop());
 */
import { SQL } from "bun";
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runPgMigrations } from "../../src/store/pg/migrations";

/** What a machine without PostgreSQL must run (Debian; .ci/run does it when initdb is absent). */
export const PG_INSTALL = "apt-get update && apt-get install -y --no-install-recommends postgresql";
/**
 * Milliseconds a hook that may start the cluster should allow (initdb + start + migrating the
 * template: 1 s on a quiet box, 8 s measured on the shared 2-core box at load 15): `beforeAll(async () => { db = await
 * pgDatabase(); }, PG_START_TIMEOUT)`.
 */
export const PG_START_TIMEOUT = 60_000;
/** The migrated database every `pgDatabase()` copies. */
export const PG_TEMPLATE = "cofre_template";

interface Cluster {
  port: number;
  dir: string;
  /** The admin pool on the `postgres` database (CREATE/DROP DATABASE). */
  admin: SQL;
}

/** A database of its own for one test file. */
export interface PgDatabase {
  name: string;
  /** `postgres://cofre@127.0.0.1:<port>/<name>` (trust auth, no password). */
  url: string;
  /** A Bun.SQL pool on it. */
  sql: SQL;
  /** Closes `sql` and drops the database (forcing out other sessions). */
  drop(): Promise<void>;
}

/**
 * The newest installed server's bin folder (`<root>/<major>/bin`, else the folder of `initdb` on
 * `path`). Throws, naming PG_INSTALL, when there is none.
 */
export function pgBinDir(root = "/usr/lib/postgresql", path = process.env.PATH ?? ""): string {
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, "bin/initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length) return join(root, majors[0]!, "bin");
  const onPath = Bun.which("initdb", { PATH: path });
  if (onPath) return onPath.slice(0, onPath.lastIndexOf("/"));
  throw new Error(
    `PostgreSQL is not installed (no ${root}/*/bin/initdb, no initdb on PATH): the PostgreSQL tests need it. Install it with:\n  ${PG_INSTALL}`,
  );
}

/** Prefix that runs a server command as `postgres` when we are root; empty otherwise. */
function asOwner(): string[] {
  return process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
}

/** Runs a server command; throws its output when it fails. */
function run(cmd: string[], what: string): void {
  // cwd "/": the postgres user may not enter the caller's folder (a private temporary checkout).
  const r = Bun.spawnSync([...asOwner(), ...cmd], { cwd: "/", stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0)
    throw new Error(
      `${what} failed (exit ${r.exitCode}): ${cmd.join(" ")}\n${r.stdout.toString()}${r.stderr.toString()}`,
    );
}

/** `s` quoted for sh. */
const sh = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** A loopback port nobody listens on right now. */
function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

async function startCluster(): Promise<Cluster> {
  const bin = pgBinDir();
  const dir = mkdtempSync(join(tmpdir(), "cofre-pg-"));
  if (process.getuid?.() === 0) {
    const uid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString());
    const gid = Number(Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString());
    if (!uid)
      throw new Error(`running as root but there is no "postgres" user to own the cluster (${PG_INSTALL} creates it)`);
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  // `bun test` ends without running "exit" handlers, and a killed runner runs none: a detached
  // watchdog waits for this process to go, then stops the cluster and removes its folder.
  // `setsid -f` forks it away from the spawned pid, which bun test kills as "dangling" when a
  // test times out (pg_ctl's daemonised server would then outlive us).
  const stop = [...asOwner(), join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"].map(sh).join(" ");
  const watchdog = `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.2; done; ${stop} >/dev/null 2>&1; rm -rf ${sh(dir)}`;
  Bun.spawn(["setsid", "-f", "sh", "-c", watchdog], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();

  run(
    [
      join(bin, "initdb"),
      "-D",
      data,
      "-A",
      "trust",
      "-U",
      "cofre",
      "--no-sync",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-instructions",
    ],
    "initdb",
  );
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = freePort();
    // max_connections: a PostgreSQL run of the suite keeps a pool per harness (idle ones close after 1 s).
    // COFRE_PG_DURABLE=1 (benchmarks, soaks): fsync, synchronous_commit and full-page writes on,
    // as in production; tests leave them off for speed.
    const durability =
      process.env.COFRE_PG_DURABLE === "1" ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${durability} -c max_connections=400`;
    try {
      run(
        [join(bin, "pg_ctl"), "-D", data, "-l", join(dir, "log"), "-w", "-t", "60", "-o", opts, "start"],
        "pg_ctl start",
      );
      break;
    } catch (e) {
      // The port may have been taken between freePort() and the bind: try another, then give up.
      if (attempt === 3)
        throw new Error(
          `${(e as Error).message}\n${existsSync(join(dir, "log")) ? readFileSync(join(dir, "log"), "utf8") : ""}`,
        );
    }
  }
  const admin = new SQL({ url: `postgres://cofre@127.0.0.1:${port}/postgres`, max: 2 });
  await admin.unsafe(`create database ${PG_TEMPLATE}`);
  const template = new SQL({ url: `postgres://cofre@127.0.0.1:${port}/${PG_TEMPLATE}`, max: 1 });
  try {
    await runPgMigrations(template);
  } finally {
    await template.close();
  }
  return { port, dir, admin };
}

let cluster: Promise<Cluster> | undefined;
/** The cluster once started (for the synchronous `pgDatabaseSync`). */
let startedCluster: Cluster | undefined;

/** The process's cluster, started (and its template migrated) on first use. */
export function pgCluster(): Promise<Cluster> {
  cluster ??= startCluster().then((c) => (startedCluster = c));
  return cluster;
}

/**
 * A fresh database copied from the migrated template, created synchronously (`createdb`, ~80 ms)
 * for callers that cannot await (the test harness builds its Deps synchronously). The cluster
 * must be started already: under COFRE_TEST_PG=1 the preload test/support/pg-preload.ts starts
 * it before the first test file. Returns its name and URL; it is dropped with the cluster.
 */
export function pgDatabaseSync(): { name: string; url: string } {
  const c = startedCluster;
  if (!c)
    throw new Error(
      "the PostgreSQL test cluster is not started: run the suite with COFRE_TEST_PG=1 (bun run test:pg), whose preload starts it",
    );
  const name = `cofre_s${process.pid}_${++seq}`;
  const r = Bun.spawnSync(
    ["createdb", "-h", "127.0.0.1", "-p", String(c.port), "-U", "cofre", "-T", PG_TEMPLATE, name],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (r.exitCode !== 0) throw new Error(`createdb ${name} failed: ${r.stderr.toString()}`);
  return { name, url: `postgres://cofre@127.0.0.1:${c.port}/${name}` };
}

let seq = 0;

/**
 * A fresh database: a copy of the migrated template, or with `{ empty: true }` a database with no
 * table at all (copied from `template0`). Throws when PostgreSQL is missing or will not start.
 */
export async function pgDatabase(opts: { empty?: boolean } = {}): Promise<PgDatabase> {
  const c = await pgCluster();
  const name = `cofre_t${process.pid}_${++seq}`;
  await c.admin.unsafe(`create database ${name} template ${opts.empty ? "template0" : PG_TEMPLATE}`);
  const url = `postgres://cofre@127.0.0.1:${c.port}/${name}`;
  const sql = new SQL({ url, max: 4 });
  return {
    name,
    url,
    sql,
    async drop() {
      await sql.close();
      await c.admin.unsafe(`drop database if exists ${name} with (force)`);
    },
  };
}
