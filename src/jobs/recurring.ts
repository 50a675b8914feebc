/** Recurring jobs' idle and catch-up deferral for the clock advance (Scheduler.every, Scheduler.deferRecurring). */
import type { RecurringOptions } from "../domain/jobs";
import type { Store } from "../store/port";

export type { RecurringOptions } from "../domain/jobs";

/** A recurring kind's options with its period (ms), as Scheduler.every registered it. */
export type RecurringJob = RecurringOptions & { everyMs: number };

/**
 * The body of Scheduler.deferRecurring, once the recurring rows are written: `recurring` maps each
 * recurring kind registered with an `idle` test or `catchUp` (its dedupe key) to its options and
 * period. Defers the jobs due by `until` whose runs before the next other work would change
 * nothing, so a 2-day advance does not step through thousands of empty runs; does anything only
 * when one is due by `next`. With B the earliest of `until` and the due time of the first other
 * queued job:
 * - an `idle` job (nothing to do, and nothing until other work changes the data) moves to its
 *   first period at or after B (as if each run in between had run and found nothing), past
 *   `until` when no other work is due by then;
 * - a `catchUp` job (a prune by age: one run does what the runs before it would) moves to its
 *   last period at or before B, so it runs once, at a time it would have run anyway.
 * One read per call when no such job is due by `next`; each move is conditional on the due
 * time read (a peer may claim the row). True when a job moved.
 */
export async function deferRecurringJobs(
  store: Store,
  recurring: ReadonlyMap<string, RecurringJob>,
  next: number,
  until: number,
): Promise<boolean> {
  // Every such job due by `until`, so that one call moves them all (not one period at a time).
  const due = await store.read.jobs.queuedByKeys([...recurring.keys()], until);
  if (!due.some((d) => d.dueAt <= next && (d.dueAt < until || !recurring.get(d.dedupeKey)?.catchUp))) return false;
  const skippable: { dedupeKey: string; dueAt: number; everyMs: number; catchUp: boolean }[] = [];
  // Jobs may share one idle test (several polls of the same connections): each runs once here.
  const idleOf = new Map<RecurringOptions["idle"], Promise<boolean> | boolean>();
  for (const row of due) {
    const r = recurring.get(row.dedupeKey);
    if (!r) continue;
    let idle = false;
    if (!r.catchUp && r.idle) {
      if (!idleOf.has(r.idle)) idleOf.set(r.idle, r.idle());
      idle = await idleOf.get(r.idle)!;
    }
    if (r.catchUp || idle) skippable.push({ ...row, everyMs: r.everyMs, catchUp: !!r.catchUp });
  }
  if (skippable.length === 0) return false;
  // Every other queued job (recurring ones not due by `next` included) is work that may change
  // what a skipped run would have found.
  const other = await store.read.jobs.firstUnleasedExcept(skippable.map((j) => j.dedupeKey));
  const bound = Math.min(until, other ?? Infinity);
  // No other work by `until`: an idle job's run at `until` itself would find nothing either.
  const quietToEnd = other === null || other > until;
  const moves: { key: string; from: number; to: number }[] = [];
  for (const j of skippable) {
    if (j.dueAt > bound || (j.dueAt === bound && (j.catchUp || !quietToEnd))) continue;
    const periods = (bound - j.dueAt) / j.everyMs;
    let n = j.catchUp ? Math.floor(periods) : Math.ceil(periods);
    if (!j.catchUp && quietToEnd && j.dueAt + n * j.everyMs <= until) n++;
    const to = j.dueAt + n * j.everyMs;
    if (to > j.dueAt) moves.push({ key: j.dedupeKey, from: j.dueAt, to });
  }
  if (moves.length === 0) return false;
  let moved = false;
  await store.tx(async (uow) => {
    for (const m of moves) if (await uow.jobs.deferQueued(m.key, m.from, m.to)) moved = true;
  });
  return moved;
}
