/**
 * State that several Cofre instances on one PostgreSQL database share (issue 17): rate-limit
 * windows, login-attempt counts and the sandbox test clock. On SQLite (one process) these tables
 * exist but stay empty: that adapter keeps the same state in memory.
 */
import { sqliteTable, text, integer, primaryKey } from "drizzle-orm/sqlite-core";

/** Requests counted per API key or account (`key`: `k:<key id>` | `a:<account id>`) per fixed minute window. */
export const rateLimitWindows = sqliteTable(
  "rate_limit_windows",
  {
    key: text("key").notNull(),
    /** The window: minutes since the epoch. */
    minute: integer("minute").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.minute] })],
);

/**
 * Login-attempt buckets (src/domain/auth/throttle.ts): `p:<email>\n<address>`, `a:<address>`,
 * `e:<email>` count failures until `reset_at`; `k:<email>\n<address>` marks an address that
 * logged in to the email, known until `reset_at`. Epoch ms.
 */
export const loginThrottle = sqliteTable("login_throttle", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
  resetAt: integer("reset_at").notNull(),
  lastAt: integer("last_at").notNull(),
});

/** Named values shared by every instance, e.g. `test_clock_offset_ms` (the sandbox test clock's offset, ms). */
export const sharedState = sqliteTable("shared_state", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
