/**
 * The audit repository of the storage port: the account's audit log (table `audit_log`;
 * interface.md "Authentication" 9, issue 15): key changes, member changes and dashboard writes.
 */
import type { AuditLogRow, NewAuditLogRow } from "../rows";

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. */
export interface AuditRepo {
  /** Appends one entry (`createdAt` epoch ms); call it inside the unit of the change it records. */
  append(entry: NewAuditLogRow): Promise<void>;
  /** The newest `limit` entries of `accountId`, newest first (by `createdAt`, then id). */
  latest(accountId: string, limit: number): Promise<AuditLogRow[]>;
}
