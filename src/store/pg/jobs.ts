/**
 * PostgreSQL implementation of the jobs repository (src/store/port/jobs.ts), for schedulers of
 * several instances on one database (src/jobs/scheduler.ts). Behaves as the SQLite twin, plus:
 *
 * - Claims lock what they lease (`for update skip locked`): two instances never lease one job.
 * - Every insert (and every pull of a job earlier) sends a `jobs` notice in its statement, so
 *   peers' loops wake for it (delivered on commit only; Store.onChange, ./notices.ts).
 * - `enqueueNoLaterThan` (the one shared expiry sweep, src/domain/charges/expiry.ts, asked by
 *   every charge create) must not write the shared row on every create (issue 17: no row every
 *   write must lock). It reads the row by dedupe key without a lock (usually all it does), then:
 *   - no row: insert it (a lost insert race reads again and goes on with the winner's row);
 *   - dead: nothing;
 *   - queued, unleased, due after x: pull `due_at` to x (the row lock then keeps any claim
 *     waiting until this unit commits, so the run sees the new charge);
 *   - leased (running on some instance), or due within MARGIN_MS of now (a peer may claim and
 *     run it before this unit commits, computing its next due time without the new charge):
 *     mark `wake_at = x` unless it already holds a time <= x. The run's outcome (reschedule,
 *     complete, recordFailure) then requeues the job no later than `wake_at`: a unit that wrote
 *     the mark holds the row lock until it commits, so the outcome statement waits for it and
 *     reads the committed mark;
 *   - already marked no later than x while leased or due soon: hold the key's advisory lock in
 *     shared mode until commit; a run's outcome takes it exclusively before it may consume the
 *     mark, so it waits until this unit's charge is visible (and the next run sees it). An
 *     advisory lock, not a row lock: a claim (`skip locked`) would pass over a row creates hold,
 *     and under steady creates the due sweep would never be claimed;
 *   - otherwise (due no later than x and not soon: the usual case) nothing.
 *   The write is one conditional UPDATE: under READ COMMITTED an UPDATE that waited for a row
 *   lock re-evaluates its WHERE and SET on the latest committed version, so pull/mark is decided
 *   on what the lock holder committed. When it updates nothing (the row vanished: a run
 *   completed; or a peer pulled or marked it meanwhile) it reads again (and may then insert).
 */
import type { ClaimedJob, JobsRepo, LeasedJob, NewJob } from "../port/jobs";
import type { PgContext } from "./context";
import { numberOf, rowOf, rowsOf } from "./map";
import { NOTICE_CHANNEL, noticePayload } from "./notices";

/**
 * A job due within this many ms of now may be claimed by a peer before the asking unit commits
 * (units take milliseconds; this bounds a unit's read-to-commit time and the instances' clock
 * skew generously), so `enqueueNoLaterThan` leaves a `wake_at` mark on it.
 */
export const MARGIN_MS = 60_000;
/** Looks of `enqueueNoLaterThan` at the row at most (each one after the first follows a lost race). */
const MAX_RUNS = 5;
/**
 * First key of the advisory locks on a dedupe key (the second is its hash): asks covered by a mark share it, outcomes
 * take it.
 */
const DEDUPE_LOCK_CLASS = 0x6a6f6273; // "jobs"
/** `jobs:` (the notice payload prefix; the due time follows). */
const JOBS_NOTICE = noticePayload("jobs", "");

/** What `enqueueNoLaterThan` reads of the row with its dedupe key. */
interface SweepState {
  state: string;
  dueAt: number;
  leaseUntil: number | null;
  wakeAt: number | null;
}

/**
 * Whether asking for a run no later than `x` must write the queued row (module header): pull it
 * (unleased, due after x) or mark it (leased or due by `soon`, with no mark <= x yet). The
 * UPDATE in `enqueueNoLaterThan` states the same condition in SQL.
 */
function needsWrite(r: SweepState, x: number, soon: number): boolean {
  if (r.leaseUntil === null && r.dueAt > x) return true;
  return (r.leaseUntil !== null || r.dueAt <= soon) && (r.wakeAt === null || r.wakeAt > x);
}

/** Whether a run may be about to consume an existing mark <= x (leased, or due by `soon`): see the module header. */
function coveredByMark(r: SweepState, x: number, soon: number): boolean {
  return (r.leaseUntil !== null || r.dueAt <= soon) && r.wakeAt !== null && r.wakeAt <= x;
}

/** Builds the jobs repository on `ctx` (a unit's transaction, or the pool for reads). */
export function jobsRepo(ctx: PgContext): JobsRepo {
  const leased = async (now: number): Promise<LeasedJob[]> =>
    rowsOf<LeasedJob>(
      await ctx.sql`select id, due_at, lease_until from jobs where state = 'queued' and due_at <= ${now} and lease_until is not null`,
    );

  /** Inserts `list` in order (a dedupe key taken, or taken earlier in the list, skips the row) and notifies the earliest due time inserted. */
  async function insertMany(list: NewJob[]): Promise<void> {
    if (list.length === 0) return;
    await ctx.sql`with ins as (
        insert into jobs (id, kind, payload, due_at, dedupe_key, created_at)
        select * from unnest(${list.map((j) => j.id)}::text[], ${list.map((j) => j.kind)}::text[], ${list.map((j) => j.payload)}::text[],
          ${list.map((j) => j.dueAt)}::bigint[], ${list.map((j) => j.dedupeKey)}::text[], ${list.map((j) => j.createdAt)}::bigint[])
        on conflict do nothing
        returning due_at)
      select pg_notify(${NOTICE_CHANNEL}, ${JOBS_NOTICE}::text || min(due_at)::text) from ins having count(*) > 0`;
  }

  /**
   * A condition on the job row for each statement of a run's outcome, which may consume a
   * `wake_at` mark: it first waits (exclusive lock on the job's dedupe key, to the end of the
   * unit) for the units whose asks the mark covers to commit (module header). In the outcome's
   * own statement rather than one before it (one round trip less per job): those units write no
   * `jobs` row, and a row another unit changed meanwhile is read again by the UPDATE or DELETE
   * when it gets the row lock (READ COMMITTED), so what the statement reads is the same.
   */
  const outcomeLocked = () =>
    ctx.sql`(dedupe_key is null or exists (select from pg_advisory_xact_lock(${DEDUPE_LOCK_CLASS}, hashtext(dedupe_key))))`;
  return {
    async enqueue(j) {
      await ctx.sql`with ins as (
          insert into jobs (id, kind, payload, due_at, dedupe_key, created_at)
          values (${j.id}, ${j.kind}, ${j.payload}, ${j.dueAt}, ${j.dedupeKey}, ${j.createdAt})
          on conflict do nothing
          returning 1)
        select pg_notify(${NOTICE_CHANNEL}, ${noticePayload("jobs", j.dueAt)}) from ins`;
    },
    enqueueMany: insertMany,
    async enqueueNoLaterThan(j) {
      const x = j.dueAt;
      const soon = j.createdAt + MARGIN_MS;
      for (let run = 1; run <= MAX_RUNS; run++) {
        // The usual case is this one cheap read and no write.
        const row = rowOf<SweepState>(
          await ctx.sql`select state, due_at, lease_until, wake_at from jobs where dedupe_key = ${j.dedupeKey}`,
        );
        if (!row) {
          const ins = await ctx.sql`with ins as (
              insert into jobs (id, kind, payload, due_at, dedupe_key, created_at)
              values (${j.id}, ${j.kind}, ${j.payload}, ${x}, ${j.dedupeKey}, ${j.createdAt})
              on conflict (dedupe_key) do nothing
              returning 1)
            select pg_notify(${NOTICE_CHANNEL}, ${noticePayload("jobs", x)}) from ins`;
          if (ins.length > 0) return;
          continue; // a peer inserted it first (its unit committed while this insert waited): decide on its row
        }
        if (row.state !== "queued") return;
        if (!needsWrite(row, x, soon)) {
          if (!coveredByMark(row, x, soon)) return;
          // Covered by another unit's mark, which a run's outcome may consume before this unit
          // commits (and a second run then miss this charge): share the key's lock until commit,
          // so that outcome waits for this unit; then look again (a new snapshot, after any
          // outcome that held the lock) that the mark still covers x.
          await ctx.sql`select pg_advisory_xact_lock_shared(${DEDUPE_LOCK_CLASS}, hashtext(${j.dedupeKey}))`;
          const held =
            await ctx.sql`select 1 from jobs where dedupe_key = ${j.dedupeKey} and state = 'queued' and wake_at <= ${x}`;
          if (held.length > 0) return;
          continue; // the mark was consumed meanwhile: decide again
        }
        // Decided again on the latest committed version (an UPDATE that waited for the row lock
        // re-evaluates WHERE and SET on it); no row updated: it changed or vanished, look again.
        const upd = await ctx.sql`with upd as (
            update jobs set
              due_at = case when lease_until is null and due_at > ${x} then ${x} else due_at end,
              wake_at = case when lease_until is null and due_at > ${x} then wake_at else ${x} end
            where dedupe_key = ${j.dedupeKey} and state = 'queued'
              and ((lease_until is null and due_at > ${x})
                or ((lease_until is not null or due_at <= ${soon}) and (wake_at is null or wake_at > ${x})))
            returning lease_until is null and due_at = ${x} as pulled)
          select pulled, case when pulled then pg_notify(${NOTICE_CHANNEL}, ${noticePayload("jobs", x)}) end from upd`;
        if (upd.length > 0) return;
      }
    },
    async cancel(key) {
      await ctx.sql`delete from jobs where dedupe_key = ${key}`;
    },
    async cancelMany(keys) {
      if (keys.length === 0) return;
      await ctx.sql`delete from jobs where dedupe_key = any(${keys}::text[])`;
    },
    async claimDue({ now, limit, running, leaseMs }) {
      if (limit <= 0) return [];
      // Locks up to limit + running.size claimable rows (peers skip them), oldest due first, and
      // leaves out those running here (never started twice, even past their lease).
      const due = rowsOf<ClaimedJob>(
        await ctx.sql`select id, kind, payload, attempts, due_at, dedupe_key from jobs
          where state = 'queued' and due_at <= ${now} and (lease_until is null or lease_until < ${now})
          order by due_at, id limit ${limit + running.size} for update skip locked`,
      )
        .filter((r) => !running.has(r.id))
        .slice(0, limit);
      if (due.length === 0) return [];
      await ctx.sql`update jobs set lease_until = l.until, attempts = jobs.attempts + 1
        from unnest(${due.map((r) => r.id)}::text[], ${due.map((r) => now + leaseMs(r.kind))}::bigint[]) as l(id, until)
        where jobs.id = l.id`;
      return due.map((r) => ({ ...r, attempts: r.attempts + 1 }));
    },
    async complete(id) {
      // A `wake_at` mark (asked while it ran) requeues the job there instead. The second
      // statement is a new snapshot: it sees a mark committed while the delete waited for its lock.
      const del = await ctx.sql`delete from jobs where id = ${id} and ${outcomeLocked()} and wake_at is null`;
      if (del.count > 0) return;
      await ctx.sql`update jobs set due_at = wake_at, wake_at = null, lease_until = null, attempts = 0, last_error = null
        where id = ${id} and ${outcomeLocked()} and wake_at is not null`;
    },
    async reschedule(id, dueAt) {
      await ctx.sql`update jobs set lease_until = null, attempts = 0, last_error = null,
          due_at = least(${dueAt}, coalesce(wake_at, ${dueAt})), wake_at = null
        where id = ${id} and ${outcomeLocked()}`;
    },
    async recordFailure(id, error, state, dueAt) {
      // A queued retry honours a `wake_at` mark; a dead job keeps none.
      const due = state === "queued" ? ctx.sql`least(${dueAt}, coalesce(wake_at, ${dueAt}))` : ctx.sql`${dueAt}`;
      await ctx.sql`update jobs set lease_until = null, last_error = ${error}, state = ${state}, due_at = ${due}, wake_at = null
        where id = ${id} and ${outcomeLocked()}`;
    },
    async wakeTimes(now) {
      const [laterDue, rows] = await Promise.all([
        // Unleased, due or not: a due row here is one the last claim skipped while another unit
        // held it locked (a create pulling or marking it); the loop looks again shortly.
        ctx.sql`select min(due_at) from jobs where state = 'queued' and lease_until is null`.then(numberOf),
        leased(now),
      ]);
      return { laterDue, leased: rows };
    },
    async claimableTimes(now) {
      const [firstUnleased, rows] = await Promise.all([
        ctx.sql`select due_at from jobs where state = 'queued' and lease_until is null order by due_at limit 1`.then(
          numberOf,
        ),
        leased(now),
      ]);
      return { firstUnleased, leased: rows };
    },
    async queuedByKeys(dedupeKeys, byMs) {
      if (dedupeKeys.length === 0) return [];
      const rows =
        await ctx.sql`select dedupe_key, due_at from jobs where dedupe_key = any(${dedupeKeys as string[]}::text[])
        and state = 'queued' and lease_until is null and due_at <= ${byMs}`;
      return (rows as unknown as { dedupe_key: string; due_at: string | number }[]).map((r) => ({
        dedupeKey: r.dedupe_key,
        dueAt: Number(r.due_at),
      }));
    },
    async firstUnleasedExcept(dedupeKeys) {
      return numberOf(
        await ctx.sql`select due_at from jobs where state = 'queued' and lease_until is null
          and (dedupe_key is null or not (dedupe_key = any(${dedupeKeys as string[]}::text[]))) order by due_at limit 1`,
      );
    },
    async deferQueued(dedupeKey, fromDueAt, toDueAt) {
      const r = await ctx.sql`update jobs set due_at = ${toDueAt}
        where dedupe_key = ${dedupeKey} and due_at = ${fromDueAt} and state = 'queued' and lease_until is null and wake_at is null`;
      return r.count > 0;
    },
    async countQueued(kind) {
      const where = kind === undefined ? ctx.sql`` : ctx.sql`and kind = ${kind}`;
      return numberOf(await ctx.sql`select count(*) from jobs where state = 'queued' ${where}`) ?? 0;
    },
    async queueStats(now) {
      // A due job: due by now, its lease (if any) run out.
      const rows = await ctx.sql`select kind, count(*)::int as queued,
          count(*) filter (where due_at <= ${now} and (lease_until is null or lease_until < ${now}))::int as due,
          min(due_at) filter (where due_at <= ${now} and (lease_until is null or lease_until < ${now})) as oldest
        from jobs where state = 'queued' group by kind order by kind`;
      return rows.map((r: { kind: string; queued: number; due: number; oldest: string | number | null }) => ({
        kind: r.kind,
        queued: r.queued,
        due: r.due,
        oldestDueAt: r.oldest === null ? null : Number(r.oldest),
      }));
    },
  };
}
