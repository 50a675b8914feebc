/**
 * The test clock's advance (extensions.md `POST /v1/test_helpers/clock/advance`): moves the clock
 * to a target the way time moves, as Stripe's test clocks do. Due work runs in time order: the
 * clock steps to each job's due time in turn (never past the target) and runs what is due there,
 * including work that earlier steps scheduled (each sandbox refund step, webhook retries, tranche
 * releases, recurring jobs), so every job sees `clock.now()` = its own due time.
 *
 * Recurring jobs (Scheduler.every) that declare themselves idle (nothing to do until other work
 * changes the data) or catch-up (a prune by age) are not stepped through period by period: the
 * advance moves them past their empty periods, up to the next other job or the target
 * (Scheduler.deferRecurring), so its steps follow the work there is, not the periods of every
 * recurring job (a 2-day advance stepped 2,880 times for a 1-minute job).
 *
 * Bounded: one advance starts at most `maxJobs` jobs (MAX_ADVANCE_JOBS). At the cap it stops
 * stepping, the clock still moves to the target, and the work still due then runs afterwards as
 * it would after real waiting (the running loop wakes on the clock's advance; a later drain or
 * advance in tests), in due order but stamped at the time it actually runs.
 *
 * Several instances (PostgreSQL): a peer's loop may claim due work first. Each step then also
 * waits (polling the table) for the due jobs other instances hold, and runs what they queued,
 * before stepping on: the advance answers once that work ran too (`settle`).
 */
import type { Clock } from "../lib/clock";
import type { Scheduler } from "./scheduler";

/** Jobs one advance runs at most (a job that keeps rescheduling itself cannot loop forever). */
export const MAX_ADVANCE_JOBS = 10_000;

export interface AdvanceResult {
  /** Epoch ms of the clock when the advance ended (the target, or later on a moving clock). */
  now: number;
  /** Distinct due times the clock stepped to before the target. */
  steps: number;
  /** Jobs started by the advance. */
  jobs: number;
  /** True when `maxJobs` was reached and due work was left for later. */
  capped: boolean;
}

/** The advance in progress per scheduler: concurrent advances run one after the other. */
const running = new WeakMap<Scheduler, Promise<unknown>>();

/**
 * Moves `clock` forward by `seconds` (> 0), running every job due up to the target at its own due
 * time (module doc). Resolves once the clock is at the target and the due work ran (or the cap was
 * hit). Throws RangeError for a non-positive `seconds` (Clock.advance).
 */
export function advanceClock(
  clock: Clock,
  jobs: Scheduler,
  seconds: number,
  maxJobs = MAX_ADVANCE_JOBS,
): Promise<AdvanceResult> {
  if (!(seconds > 0)) throw new RangeError("advance takes a positive number of seconds");
  const before = running.get(jobs) ?? Promise.resolve();
  const mine = before.then(() => stepTo(clock, jobs, Math.round(seconds * 1000), maxJobs));
  const settled = mine.catch(() => {});
  running.set(jobs, settled);
  void settled.then(() => {
    if (running.get(jobs) === settled) running.delete(jobs);
  });
  return mine;
}

async function stepTo(clock: Clock, jobs: Scheduler, ms: number, maxJobs: number): Promise<AdvanceResult> {
  const target = clock.nowMs() + ms;
  // Jobs started by anyone during the advance (the running loop also wakes on each step).
  const first = jobs.started;
  const startedSince = () => jobs.started - first;
  const budget = () => maxJobs - startedSince();
  // Leases of other instances this advance stopped waiting for (`<id>:<lease>`): never again.
  const orphans = new Set<string>();
  await settle(clock, jobs, budget, orphans);
  let steps = 0;
  while (startedSince() < maxJobs) {
    const next = await jobs.nextDueAt();
    if (next === null || next > target) break;
    // Recurring jobs with nothing to do are moved past their empty periods (Scheduler.deferRecurring).
    if (next > clock.nowMs() && (await jobs.deferRecurring(next, target))) continue;
    const now = clock.nowMs();
    if (next > now) {
      clock.advance((next - now) / 1000);
      steps++;
    }
    const before = jobs.started;
    const peers = await settle(clock, jobs, budget, orphans);
    // Nothing started although something was due by now (a lease held elsewhere that did not
    // end): step on to the target rather than spin.
    if (jobs.started === before && next <= now && !peers) break;
  }
  const capped = startedSince() >= maxJobs;
  const now = clock.nowMs();
  if (target > now) clock.advance((target - now) / 1000);
  if (!capped) await settle(clock, jobs, budget, orphans);
  return { now: clock.nowMs(), steps, jobs: startedSince(), capped };
}

/**
 * Runs what is due now (`drain`), then, on PostgreSQL, waits for the due jobs other instances
 * are running and runs what their runs made due, until neither is left. True when it waited
 * for another instance.
 */
async function settle(clock: Clock, jobs: Scheduler, budget: () => number, orphans: Set<string>): Promise<boolean> {
  let waited = false;
  for (;;) {
    await jobs.drain(budget());
    if (!(await waitForPeers(clock, jobs, orphans))) return waited;
    waited = true;
  }
}

/** Milliseconds between two looks at the jobs other instances are running. */
const PEER_POLL_MS = 15;
/**
 * Real milliseconds the advance waits for other instances' jobs at most. The table cannot tell a
 * job a live peer runs from one a dead peer left leased, and sandbox work takes milliseconds: a
 * lease still held after this is taken for an orphan (claimed again once the clock passes it).
 */
const PEER_WAIT_MAX_MS = 3_000;

/**
 * Polls until no job due by now is leased by another instance (none on SQLite: no query), for
 * at most PEER_WAIT_MAX_MS and never past the longest of their leases (in real ms); leases in
 * `orphans` are not waited for, and the ones still held when it gives up join them. True when
 * every such job finished; false when there was none or it gave up.
 */
async function waitForPeers(clock: Clock, jobs: Scheduler, orphans: Set<string>): Promise<boolean> {
  const held = async () => (await jobs.leasedElsewhere()).filter((r) => !orphans.has(`${r.id}:${r.leaseUntil}`));
  let leased = await held();
  if (leased.length === 0) return false;
  const now = clock.nowMs();
  const longest = Math.max(...leased.map((r) => (r.leaseUntil ?? now) - now));
  const deadline = performance.now() + Math.min(PEER_WAIT_MAX_MS, longest);
  while (leased.length > 0) {
    if (performance.now() > deadline) {
      for (const r of leased) orphans.add(`${r.id}:${r.leaseUntil}`);
      return false;
    }
    await Bun.sleep(PEER_POLL_MS);
    leased = await held();
  }
  return true;
}
