/** Durable jobs: one row per scheduled unit of work; survives restarts (src/jobs/scheduler.ts). */
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    /** JSON text. */
    payload: text("payload").notNull(),
    /** Epoch ms when the job becomes runnable. */
    dueAt: integer("due_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** Epoch ms until which a worker owns the job; null when unclaimed. */
    leaseUntil: integer("lease_until"),
    /** Optional dedupe key: at most one live job per key (e.g. `charge.expire:<raw id>`). */
    dedupeKey: text("dedupe_key"),
    lastError: text("last_error"),
    /** "queued" | "dead" (a dead job exhausted its attempts and is kept for inspection). */
    state: text("state").notNull().default("queued"),
    createdAt: integer("created_at").notNull(),
    /**
     * Epoch ms asked for by `enqueueNoLaterThan` while the job was leased or about to run (issue
     * 17, PostgreSQL: another instance may be running it); the outcome of the run reschedules
     * the job no later than this and clears it. Unused on SQLite (one process: kept in memory).
     */
    wakeAt: integer("wake_at"),
  },
  (t) => [index("jobs_due_idx").on(t.state, t.dueAt), uniqueIndex("jobs_dedupe_uq").on(t.dedupeKey)],
);
