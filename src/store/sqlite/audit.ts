/** SQLite implementation of the audit repository (src/store/port/audit.ts). */
import type { AuditRepo } from "../port/audit";
import type { SqliteContext } from "./context";

/** Builds the audit repository on the adapter's connection `ctx`. */
export function auditRepo(ctx: SqliteContext): AuditRepo {
  void ctx;
  return {};
}
