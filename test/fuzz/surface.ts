/**
 * Helpers that look at the running app generically (used by the fuzz and isolation tests):
 * the route list, the credential each route takes, row counts of every table, the envelope check.
 * Nothing here knows a particular route group, so routes are covered as soon as they are mounted.
 */
import type { Harness } from "../support/harness";
import { testDb } from "../support/test-db";

/** One mounted route as Elysia lists it in `app.routes`. */
export interface RouteInfo {
  method: string;
  path: string;
  /** The TypeBox body schema, when the route declares one. */
  body?: unknown;
}

/** Bodies of these paths are raw bytes (evidence uploads), never JSON: not fuzzed as JSON. */
export const RAW_BODY_PREFIXES = ["/v1/uploads/"];

/** Every mounted route, deduplicated by method + path, in a stable order. */
export function listRoutes(h: Harness): RouteInfo[] {
  const seen = new Map<string, RouteInfo>();
  for (const r of (h.app as unknown as { routes: { method: string; path: string; hooks?: { body?: unknown } }[] })
    .routes) {
    const k = `${r.method} ${r.path}`;
    if (!seen.has(k)) seen.set(k, { method: r.method, path: r.path, body: r.hooks?.body });
  }
  return [...seen.values()].sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** `:name` segments of a route path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

/** Replaces every `:param` with `fill(name)` (URL-encoded). */
export function fillPath(path: string, fill: (name: string) => string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(fill(name)));
}

/**
 * Tables whose rows may legitimately change on a rejected request: the request log records every
 * apikey-authenticated call whatever its status (interface.md "Authentication" 9) and its
 * AUTOINCREMENT counter lives in `sqlite_sequence`; `__drizzle_migrations` is bookkeeping. On
 * PostgreSQL the rate-limit windows (every request counts, synced in the background) and the
 * login throttle's buckets (a failed login counts) are tables too; SQLite keeps both in memory.
 */
export const LOG_TABLES = new Set([
  "request_logs",
  "sqlite_sequence",
  "__drizzle_migrations",
  "rate_limit_windows",
  "login_throttle",
]);

/**
 * `{table: digest}` of every row of every table except `exclude`, so an UPDATE shows as well as an
 * INSERT or DELETE. Either backend: SQLite hashes the rows here (in the order of all their
 * columns); PostgreSQL hashes each table's rows as text in one query (the fuzz takes a snapshot
 * around every request). Meant for small test databases.
 */
export async function tableDigests(
  h: Pick<Harness, "deps">,
  exclude: Set<string> = LOG_TABLES,
): Promise<Record<string, string>> {
  const db = testDb(h.deps);
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const out: Record<string, string> = {};
  if (db.kind === "postgres") {
    const names = (
      await db.all<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
      )
    )
      .map((r) => r.name)
      .filter((n) => !exclude.has(n));
    if (!names.length) return out;
    const parts = names.map(
      (n) =>
        `select '${n.replaceAll("'", "''")}' as name, count(*) as n, md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as d from ${quote(n)} r`,
    );
    for (const r of await db.all<{ name: string; n: number; d: string }>(parts.join(" union all ")))
      out[r.name] = `${r.n}:${r.d.slice(0, 12)}`;
    return out;
  }
  const names = await db.all<{ name: string }>("select name from sqlite_master where type = 'table' order by name");
  for (const { name } of names) {
    if (exclude.has(name) || name.startsWith("sqlite_")) continue;
    const width = Object.keys((await db.get(`select * from ${quote(name)} limit 1`)) ?? {}).length;
    const order = width ? ` order by ${Array.from({ length: width }, (_, i) => i + 1).join(", ")}` : "";
    const rows = await db.all(`select * from ${quote(name)}${order}`);
    const hasher = new Bun.CryptoHasher("sha1");
    for (const r of rows)
      hasher.update(
        JSON.stringify(Object.values(r), (_, v) =>
          v instanceof Uint8Array ? Buffer.from(v).toString("hex") : typeof v === "bigint" ? String(v) : v,
        ),
      );
    out[name] = `${rows.length}:${hasher.digest("hex").slice(0, 12)}`;
  }
  return out;
}

/** Tables whose count (or digest) differs between two snapshots, as `table: before -> after`. */
export function countDiff(before: Record<string, number | string>, after: Record<string, number | string>): string[] {
  const out: string[] = [];
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)]))
    if (before[k] !== after[k]) out.push(`${k}: ${before[k] ?? 0} -> ${after[k] ?? 0}`);
  return out;
}

/** True when `body` is exactly our error envelope `{error: {type, code, message, ...}, request_id}`. */
export function isEnvelope(body: unknown): boolean {
  if (!body || typeof body !== "object" || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  if (Object.keys(b).sort().join(",") !== "error,request_id" || typeof b.request_id !== "string") return false;
  const e = b.error as Record<string, unknown> | null;
  if (!e || typeof e !== "object") return false;
  const extra = Object.keys(e).filter((k) => !["type", "code", "message", "param", "details"].includes(k));
  return (
    typeof e.type === "string" && typeof e.code === "string" && typeof e.message === "string" && extra.length === 0
  );
}

/** Credentials a route may take; `probeAuth` finds which one a route accepts. */
export interface Credentials {
  testKey: string;
  liveKey: string;
  /** Dashboard token of the account owner (absent when no login route exists). */
  bearer?: string;
  operatorToken: string;
}

export type AuthKind = "apikey" | "bearer" | "operator" | "none";

/** Request options carrying the credential of `kind`. */
export function authOptions(kind: AuthKind, c: Credentials, live = false): { key?: string; bearer?: string } {
  if (kind === "apikey") return { key: live ? c.liveKey : c.testKey };
  if (kind === "bearer") return c.bearer ? { bearer: c.bearer } : {};
  if (kind === "operator") return { bearer: c.operatorToken };
  return {};
}

/**
 * Which credential `route` accepts: the first of apikey, bearer, operator whose request does not
 * answer 401 (sent with an empty-array body and garbage path ids, so nothing can be written).
 * "none" when every kind answers the same non-401 status (a public route) or all answer 401.
 */
export async function probeAuth(h: Harness, route: RouteInfo, c: Credentials): Promise<AuthKind> {
  const path = fillPath(route.path, () => "probe_does_not_exist");
  const bare = await h.call(route.method, path, { body: [] });
  if (bare.status !== 401) return "none";
  for (const kind of ["apikey", "bearer", "operator"] as const) {
    if (kind === "bearer" && !c.bearer) continue;
    const r = await h.call(route.method, path, { body: [], ...authOptions(kind, c) });
    if (r.status !== 401) return kind;
  }
  return "none";
}

/** True when `Object.prototype` carries any own enumerable key or the marker key of the fuzz. */
export function prototypePolluted(): string | null {
  const keys = Object.keys(Object.prototype);
  if (keys.length) return `Object.prototype gained ${keys.join(",")}`;
  for (const k of ["polluted", "isAdmin", "livemode", "accountId"]) if (k in {}) return `{} now has "${k}"`;
  if ((Array.prototype as unknown as Record<string, unknown>).polluted !== undefined) return "Array.prototype.polluted";
  return null;
}
