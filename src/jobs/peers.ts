/**
 * What the scheduler (src/jobs/scheduler.ts) reads of the other instances' work on PostgreSQL,
 * where several schedulers share the `jobs` table. On SQLite one process owns the database: a
 * lease not held here is an orphan and no claim ever skips a locked row, so both answer "none"
 * without reading.
 */
import type { Clock } from "../lib/clock";
import type { Store } from "../store/port";
import type { LeasedJob } from "../store/port/jobs";

/** Jobs due by now leased by another instance (running there): those not in `inflight`. */
export async function leasedByPeers(
  store: Store,
  clock: Clock,
  inflight: { has(id: string): boolean },
): Promise<LeasedJob[]> {
  if (store.kind !== "postgres") return [];
  const { leased } = await store.read.jobs.claimableTimes(clock.nowMs());
  return leased.filter((r) => !inflight.has(r.id));
}

/**
 * True when a queued, unleased job is due by now although the last claim found nothing to take:
 * `for update skip locked` passed over it because another unit held it locked for a moment (a
 * create pulling the shared sweep earlier).
 */
export async function dueButSkipped(store: Store, clock: Clock): Promise<boolean> {
  if (store.kind !== "postgres") return false;
  const { firstUnleased } = await store.read.jobs.claimableTimes(clock.nowMs());
  return firstUnleased !== null && firstUnleased <= clock.nowMs();
}
