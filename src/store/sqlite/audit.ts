/** SQLite implementation of the audit repository (src/store/port/audit.ts). */
import { desc, eq } from "drizzle-orm";
import { auditLog } from "../../../db/schema";
import type { AuditRepo } from "../port/audit";
import type { SqliteContext } from "./context";

/** Builds the audit repository on the adapter's connection `ctx` (builder queries: off the hot path). */
export function auditRepo(ctx: SqliteContext): AuditRepo {
  return {
    async append(entry) {
      ctx.db.insert(auditLog).values(entry).run();
    },
    async latest(accountId, limit) {
      return ctx.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.accountId, accountId))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(limit)
        .all();
    },
  };
}
