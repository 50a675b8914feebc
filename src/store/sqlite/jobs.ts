/** SQLite implementation of the jobs repository (src/store/port/jobs.ts): raw prepared statements over `jobs`. */
import { and, eq, sql } from "drizzle-orm";
import { jobs } from "../../../db/schema";
import type { ClaimedJob, JobsRepo, LeasedJob, NewJob } from "../port/jobs";
import type { SqliteContext } from "./context";

const INSERT =
  "insert into jobs (id, kind, payload, due_at, dedupe_key, created_at) values (?, ?, ?, ?, ?, ?) on conflict do nothing";
const UPSERT_EARLIER =
  "insert into jobs (id, kind, payload, due_at, dedupe_key, created_at) values (?, ?, ?, ?, ?, ?) " +
  "on conflict (dedupe_key) do update set due_at = excluded.due_at where excluded.due_at < jobs.due_at and jobs.state = 'queued'";
/** Claimable now (args: now, now, limit), oldest due first; rides the (state, due_at) index. */
const DUE =
  "select id, kind, payload, attempts, due_at as dueAt, dedupe_key as dedupeKey from jobs where state = 'queued' and due_at <= ? and (lease_until is null or lease_until < ?) order by due_at limit ?";
const LEASE = "update jobs set lease_until = ?, attempts = ? where id = ?";
const REMOVE = "delete from jobs where id = ?";
const RETRY = "update jobs set lease_until = null, attempts = 0, last_error = null, due_at = ? where id = ?";
const FAIL = "update jobs set lease_until = null, last_error = ?, state = ?, due_at = ? where id = ?";
/** Earliest due time after now (arg: now). */
const NEXT_DUE = "select min(due_at) as due from jobs where state = 'queued' and due_at > ?";
/** Due time of the earliest queued job nobody holds a lease on (walks the (state, due_at) index). */
const FIRST_UNLEASED =
  "select due_at as at from jobs where state = 'queued' and lease_until is null order by due_at limit 1";
/** The clock advance's recurring jobs (src/jobs/scheduler.ts deferRecurring): dedupe keys as a JSON array. */
const QUEUED_BY_KEYS =
  "select dedupe_key as dedupeKey, due_at as dueAt from jobs where dedupe_key in (select value from json_each(?)) and state = 'queued' and lease_until is null and due_at <= ?";
const FIRST_UNLEASED_EXCEPT =
  "select due_at as at from jobs where state = 'queued' and lease_until is null and (dedupe_key is null or dedupe_key not in (select value from json_each(?))) order by due_at limit 1";
const DEFER_QUEUED =
  "update jobs set due_at = ? where dedupe_key = ? and due_at = ? and state = 'queued' and lease_until is null";
/** Jobs due by now that are still leased (arg: now). */
const LEASED =
  "select id, due_at as dueAt, lease_until as leaseUntil from jobs where state = 'queued' and due_at <= ? and lease_until is not null";

/** Builds the jobs repository on the adapter's connection `ctx`. */
export function jobsRepo(ctx: SqliteContext): JobsRepo {
  const insert = (j: NewJob) => ctx.stmt(INSERT).run(j.id, j.kind, j.payload, j.dueAt, j.dedupeKey, j.createdAt);
  const cancel = (key: string) => ctx.db.delete(jobs).where(eq(jobs.dedupeKey, key)).run();
  const leased = (now: number) => ctx.stmt(LEASED).all(now) as LeasedJob[];
  return {
    async enqueue(job) {
      insert(job);
    },
    async enqueueMany(list) {
      for (const j of list) insert(j);
    },
    async enqueueNoLaterThan(j) {
      ctx.stmt(UPSERT_EARLIER).run(j.id, j.kind, j.payload, j.dueAt, j.dedupeKey, j.createdAt);
    },
    async cancel(key) {
      cancel(key);
    },
    async cancelMany(keys) {
      for (const k of keys) cancel(k);
    },
    async claimDue({ now, limit, running, leaseMs }) {
      // Fetch enough rows to skip the ones running here (never started twice, even past the lease).
      const rows = ctx.stmt(DUE).all(now, now, limit + running.size) as ClaimedJob[];
      const lease = ctx.stmt(LEASE);
      const out: ClaimedJob[] = [];
      for (const r of rows) {
        if (out.length >= limit) break;
        if (running.has(r.id)) continue;
        lease.run(now + leaseMs(r.kind), r.attempts + 1, r.id);
        out.push({ ...r, attempts: r.attempts + 1 });
      }
      return out;
    },
    async complete(id) {
      ctx.stmt(REMOVE).run(id);
    },
    async reschedule(id, dueAt) {
      ctx.stmt(RETRY).run(dueAt, id);
    },
    async recordFailure(id, error, state, dueAt) {
      ctx.stmt(FAIL).run(error, state, dueAt, id);
    },
    async wakeTimes(now) {
      const laterDue = (ctx.stmt(NEXT_DUE).get(now) as { due: number | null } | null)?.due ?? null;
      return { laterDue, leased: leased(now) };
    },
    async claimableTimes(now) {
      const firstUnleased = (ctx.stmt(FIRST_UNLEASED).get() as { at: number } | null)?.at ?? null;
      return { firstUnleased, leased: leased(now) };
    },
    async queuedByKeys(dedupeKeys, byMs) {
      if (dedupeKeys.length === 0) return [];
      return ctx.stmt(QUEUED_BY_KEYS).all(JSON.stringify(dedupeKeys), byMs) as { dedupeKey: string; dueAt: number }[];
    },
    async firstUnleasedExcept(dedupeKeys) {
      return (ctx.stmt(FIRST_UNLEASED_EXCEPT).get(JSON.stringify(dedupeKeys)) as { at: number } | null)?.at ?? null;
    },
    async deferQueued(dedupeKey, fromDueAt, toDueAt) {
      return ctx.stmt(DEFER_QUEUED).run(toDueAt, dedupeKey, fromDueAt).changes > 0;
    },
    async countQueued(kind) {
      const where = kind ? and(eq(jobs.state, "queued"), eq(jobs.kind, kind)) : eq(jobs.state, "queued");
      return ctx.db.select({ n: sql<number>`count(*)` }).from(jobs).where(where).get()!.n;
    },
    async queueStats(now) {
      const rows = ctx.stmt(QUEUE_STATS_SQL).all(now, now, now, now) as {
        kind: string;
        queued: number;
        due: number | null;
        oldest: number | null;
      }[];
      return rows.map((r) => ({ kind: r.kind, queued: r.queued, due: r.due ?? 0, oldestDueAt: r.oldest }));
    },
  };
}

/** Queue figures per kind (metrics scrape): a due job is one due by now whose lease (if any) has run out. */
const QUEUE_STATS_SQL = `select kind, count(*) as queued,
    sum(case when due_at <= ? and (lease_until is null or lease_until < ?) then 1 else 0 end) as due,
    min(case when due_at <= ? and (lease_until is null or lease_until < ?) then due_at end) as oldest
  from jobs where state = 'queued' group by kind order by kind`;
