/**
 * The sandbox test clock's offset (COFRE_TEST_CLOCK=1) kept in SQLite's `shared_state` row
 * `test_clock_offset_ms`, as PostgreSQL keeps it (src/store/pg/clock-share.ts): read when the
 * process starts, written after every advance. Without it a restart of `serve`, or a PostgreSQL
 * instance after `cofre import-sqlite` (which copies `shared_state`), fell back to the wall clock:
 * time ran backwards by every advance, and "today" of `GET /v1/payments/stats` could be the
 * previous São Paulo day (extensions.md: the advance moves the service clock for everyone).
 */
import type { SystemClock } from "../../lib/clock";
import type { SqliteStore } from "./index";

const ROW = "test_clock_offset_ms";
const READ = "SELECT value FROM shared_state WHERE name = ?1";
const WRITE = `INSERT INTO shared_state (name, value, updated_at) VALUES (?1, ?2, ?3)
  ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;

/**
 * Moves `clock` to the offset (ms) stored in `store` (never back) and returns the `publish` the
 * advance route awaits: it stores the clock's offset (ms past the wall clock).
 */
export function sqliteClockOffset(store: SqliteStore, clock: SystemClock): { publish(): Promise<void> } {
  const row = store.ctx.stmt(READ).get(ROW) as { value: string } | null;
  const stored = row ? Number(row.value) : 0;
  if (Number.isFinite(stored)) clock.catchUp(stored);
  return {
    async publish() {
      store.ctx.stmt(WRITE).run(ROW, String(clock.offset), Date.now());
    },
  };
}
