/** PostgreSQL implementation of the payments repository (src/store/port/payments.ts). NOT BUILT YET: every method throws. */
import type { PaymentsRepo } from "../port/payments";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the payments repository on `ctx`. */
export function paymentsRepo(_ctx: PgContext): PaymentsRepo {
  return notBuilt<PaymentsRepo>("payments");
}
