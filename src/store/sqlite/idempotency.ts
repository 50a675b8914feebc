/** SQLite implementation of the idempotency repository (src/store/port/idempotency.ts). */
import type { IdempotencyRepo } from "../port/idempotency";
import type { SqliteContext } from "./context";

/** Builds the idempotency repository on the adapter's connection `ctx`. */
export function idempotencyRepo(ctx: SqliteContext): IdempotencyRepo {
  void ctx;
  return {};
}
