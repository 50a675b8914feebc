/**
 * The job scheduler's raw prepared statements over `jobs` (src/jobs/scheduler.ts): one insert or
 * upsert per enqueue, one claim read and one lease write per claimed job, one outcome write per
 * run. Prepared once per scheduler (hot path of webhook delivery, see README "Webhooks").
 */
import type { Db } from "../db/client";

export interface DueRow {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
  dueAt: number;
  dedupeKey: string | null;
}

/** The scheduler's per-job statements, prepared once per scheduler (enqueue, claim, one outcome per job). */
export function prepareStatements(db: Db) {
  const c = db.$client;
  return {
    /** One job row (args: id, kind, payload, dueAt, dedupeKey, createdAt); a live duplicate dedupe key is ignored. */
    insert: c.prepare<unknown, [string, string, string, number, string | null, number]>(
      "insert into jobs (id, kind, payload, due_at, dedupe_key, created_at) values (?, ?, ?, ?, ?, ?) on conflict do nothing",
    ),
    /**
     * Inserts a job, or pulls the queued job with the same dedupe key earlier (args as insert);
     * writes nothing when that job is already due no later.
     */
    upsertEarlier: c.prepare<unknown, [string, string, string, number, string, number]>(
      "insert into jobs (id, kind, payload, due_at, dedupe_key, created_at) values (?, ?, ?, ?, ?, ?) " +
        "on conflict (dedupe_key) do update set due_at = excluded.due_at where excluded.due_at < jobs.due_at and jobs.state = 'queued'",
    ),
    /** Claimable now (args: now, now, limit), oldest due first; rides the (state, due_at) index. */
    due: c.prepare<DueRow, [number, number, number]>(
      "select id, kind, payload, attempts, due_at as dueAt, dedupe_key as dedupeKey from jobs where state = 'queued' and due_at <= ? and (lease_until is null or lease_until < ?) order by due_at limit ?",
    ),
    /** args: leaseUntil, attempts, id. */
    lease: c.prepare<unknown, [number, number, string]>("update jobs set lease_until = ?, attempts = ? where id = ?"),
    remove: c.prepare<unknown, [string]>("delete from jobs where id = ?"),
    /** args: dueAt, id. */
    retry: c.prepare<unknown, [number, string]>("update jobs set lease_until = null, attempts = 0, last_error = null, due_at = ? where id = ?"),
    /** args: lastError, state, dueAt, id. */
    fail: c.prepare<unknown, [string, string, number, string]>("update jobs set lease_until = null, last_error = ?, state = ?, due_at = ? where id = ?"),
    /** Earliest due time after now (arg: now). */
    nextDue: c.prepare<{ due: number | null }, [number]>("select min(due_at) as due from jobs where state = 'queued' and due_at > ?"),
    /** Due time of the earliest queued job nobody holds a lease on (walks the (state, due_at) index). */
    firstUnleased: c.prepare<{ at: number }, []>(
      "select due_at as at from jobs where state = 'queued' and lease_until is null order by due_at limit 1",
    ),
    /** Jobs due by now that are still leased (arg: now): in flight here or orphaned by a dead worker. */
    leased: c.prepare<{ id: string; dueAt: number; leaseUntil: number | null }, [number]>(
      "select id, due_at as dueAt, lease_until as leaseUntil from jobs where state = 'queued' and due_at <= ? and lease_until is not null",
    ),
  };
}
export type Statements = ReturnType<typeof prepareStatements>;
