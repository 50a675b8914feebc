/** PostgreSQL implementation of the audit repository (src/store/port/audit.ts). */
import type { AuditRepo } from "../port/audit";
import type { AuditLogRow } from "../rows";
import type { PgContext } from "./context";
import { rowsOf, toColumns } from "./map";

/** Builds the audit repository on `ctx`. */
export function auditRepo(ctx: PgContext): AuditRepo {
  const { sql } = ctx;
  return {
    async append(entry) {
      await sql`insert into audit_log ${sql(toColumns(entry))}`;
    },
    async latest(accountId, limit) {
      return rowsOf<AuditLogRow>(
        await sql`select * from audit_log where account_id = ${accountId} order by created_at desc, id desc limit ${limit}`,
      );
    },
  };
}
