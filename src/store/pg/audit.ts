/** PostgreSQL implementation of the audit repository (src/store/port/audit.ts). NOT BUILT YET: every method throws. */
import type { AuditRepo } from "../port/audit";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the audit repository on `ctx`. */
export function auditRepo(_ctx: PgContext): AuditRepo {
  return notBuilt<AuditRepo>("audit");
}
