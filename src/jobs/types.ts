/**
 * The scheduler's internal types: a registered kind's retry policy and its defaults, and a new job's row. The public
 * ones (a claimed job, what a handler returns, handler and enqueue options) are the domain's
 * (src/domain/jobs.ts).
 */
import type { EnqueueInput, JobHandler } from "../domain/jobs";
import { newId } from "../lib/ids";
import type { NewJob } from "../store/port/jobs";

/** A registered job kind: its handler and its retry policy (lease and backoff in ms / seconds). */
export interface Registered {
  handler: JobHandler;
  maxAttempts: number;
  leaseMs: number;
  backoff: (attempt: number) => number;
}

/** What a job kind gets when it was registered without options (or was never registered). */
export const DEFAULTS: Omit<Registered, "handler"> = {
  maxAttempts: 25,
  leaseMs: 120_000,
  backoff: (n) => Math.min(2 ** n, 3600),
};

/** Epoch ms of a due time given as a Date or epoch ms. */
export function dueMs(due: Date | number): number {
  return typeof due === "number" && Number.isSafeInteger(due) ? due : new Date(due).getTime();
}

/** The row of a new job `input` (a fresh id; due now when `input.dueAt` is not given), at `now` (epoch ms). */
export function newJobRow(input: EnqueueInput, now: number): NewJob {
  return {
    id: newId("job"),
    kind: input.kind,
    payload: JSON.stringify(input.payload ?? {}),
    dueAt: input.dueAt === undefined ? now : dueMs(input.dueAt),
    dedupeKey: input.dedupeKey ?? null,
    createdAt: now,
  };
}
