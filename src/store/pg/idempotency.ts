/** PostgreSQL implementation of the idempotency repository (src/store/port/idempotency.ts). NOT BUILT YET: every method throws. */
import type { IdempotencyRepo } from "../port/idempotency";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the idempotency repository on `ctx`. */
export function idempotencyRepo(_ctx: PgContext): IdempotencyRepo {
  return notBuilt<IdempotencyRepo>("idempotency");
}
