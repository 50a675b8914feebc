/** SQLite implementation of the payments repository (src/store/port/payments.ts). */
import type { PaymentsRepo } from "../port/payments";
import type { SqliteContext } from "./context";

/** Builds the payments repository on the adapter's connection `ctx`. */
export function paymentsRepo(ctx: SqliteContext): PaymentsRepo {
  void ctx;
  return {};
}
