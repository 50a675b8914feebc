/** Drizzle queries of the med group (cases, evidence, URL secret) and the few charge fields MED touches. */
import { and, desc, eq, gt, lt, or, notInArray, sql, type SQL } from "drizzle-orm";
import { medCases, medEvidence, medSecrets, transactions } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";
import { randomHex } from "../../lib/crypto";
import { FINAL_STATUSES, type MedCaseStatus, type MedCaseType } from "./model";

export type MedCaseRow = typeof medCases.$inferSelect;
export type MedEvidenceRow = typeof medEvidence.$inferSelect;

export interface Scope {
  accountId: string;
  livemode: boolean;
}

export function insertCase(db: DbOrTx, row: typeof medCases.$inferInsert): void {
  db.insert(medCases).values(row).run();
}

/** The case `id` of the caller's account and mode, or undefined. */
export function findCase(db: DbOrTx, scope: Scope, id: string): MedCaseRow | undefined {
  return db
    .select()
    .from(medCases)
    .where(and(eq(medCases.id, id), eq(medCases.accountId, scope.accountId), eq(medCases.livemode, scope.livemode)))
    .get();
}

/** The case `id` whatever its account (operator and job use only). */
export function findCaseAnyAccount(db: DbOrTx, id: string): MedCaseRow | undefined {
  return db.select().from(medCases).where(eq(medCases.id, id)).get();
}

export function findCaseByExternalId(db: DbOrTx, accountId: string, externalId: string): MedCaseRow | undefined {
  return db
    .select()
    .from(medCases)
    .where(and(eq(medCases.accountId, accountId), eq(medCases.externalId, externalId)))
    .get();
}

/** A case of the transaction that is not final yet (at most one is allowed). */
export function findActiveCaseForTransaction(db: DbOrTx, transactionId: string): MedCaseRow | undefined {
  return db
    .select()
    .from(medCases)
    .where(and(eq(medCases.transactionId, transactionId), notInArray(medCases.status, [...FINAL_STATUSES])))
    .get();
}

export function updateCase(db: DbOrTx, id: string, patch: Partial<typeof medCases.$inferInsert>): MedCaseRow {
  return db.update(medCases).set(patch).where(eq(medCases.id, id)).returning().get()!;
}

export interface CaseListFilter {
  status?: MedCaseStatus;
  type?: MedCaseType;
  transactionId?: string;
  /** Exclusive bounds, epoch ms. */
  createdAfter?: number;
  createdBefore?: number;
  /** Cursor: rows strictly older than this case (created_at, id). */
  after?: { createdAt: number; id: string };
  limit: number;
}

/** Cases of `scope` newest first (created_at desc, id desc); fetches `limit + 1` to tell has_more. */
export function listCases(db: DbOrTx, scope: Scope, f: CaseListFilter): MedCaseRow[] {
  const where: SQL[] = [eq(medCases.accountId, scope.accountId), eq(medCases.livemode, scope.livemode)];
  if (f.status) where.push(eq(medCases.status, f.status));
  if (f.type) where.push(eq(medCases.type, f.type));
  if (f.transactionId) where.push(eq(medCases.transactionId, f.transactionId));
  if (f.createdAfter !== undefined) where.push(gt(medCases.createdAt, f.createdAfter));
  if (f.createdBefore !== undefined) where.push(lt(medCases.createdAt, f.createdBefore));
  if (f.after)
    where.push(
      or(lt(medCases.createdAt, f.after.createdAt), and(eq(medCases.createdAt, f.after.createdAt), lt(medCases.id, f.after.id)))!,
    );
  return db
    .select()
    .from(medCases)
    .where(and(...where))
    .orderBy(desc(medCases.createdAt), desc(medCases.id))
    .limit(f.limit + 1)
    .all();
}

// ---- the disputed transaction (table owned by the charges group; MED touches status and metadata.med)

/** Sets the transaction's status (when given) and its `metadata.med` block. */
export function writeChargeMed(db: DbOrTx, id: string, med: Record<string, unknown>, now: number, status?: string): void {
  const row = db.select({ metadata: transactions.metadata }).from(transactions).where(eq(transactions.id, id)).get();
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(row?.metadata ?? "{}");
  } catch {}
  metadata.med = med;
  db.update(transactions)
    .set({ metadata: JSON.stringify(metadata), updatedAt: now, ...(status ? { status } : {}) })
    .where(eq(transactions.id, id))
    .run();
}

/** The `metadata.med` block currently on the transaction (empty object when none). */
export function readChargeMed(db: DbOrTx, id: string): Record<string, unknown> {
  const row = db.select({ metadata: transactions.metadata }).from(transactions).where(eq(transactions.id, id)).get();
  try {
    const med = JSON.parse(row?.metadata ?? "{}").med;
    return med && typeof med === "object" ? med : {};
  } catch {
    return {};
  }
}

// ---- evidence

export function insertEvidence(db: DbOrTx, row: typeof medEvidence.$inferInsert): void {
  db.insert(medEvidence).values(row).run();
}

export function findEvidence(db: DbOrTx, caseId: string, id: string): MedEvidenceRow | undefined {
  return db
    .select()
    .from(medEvidence)
    .where(and(eq(medEvidence.id, id), eq(medEvidence.caseId, caseId)))
    .get();
}

export function findEvidenceById(db: DbOrTx, id: string): MedEvidenceRow | undefined {
  return db.select().from(medEvidence).where(eq(medEvidence.id, id)).get();
}

export function updateEvidence(db: DbOrTx, id: string, patch: Partial<typeof medEvidence.$inferInsert>): MedEvidenceRow {
  return db.update(medEvidence).set(patch).where(eq(medEvidence.id, id)).returning().get()!;
}

/** Confirmed evidence of a case, newest first. */
export function listConfirmedEvidence(db: DbOrTx, caseId: string): MedEvidenceRow[] {
  return db
    .select()
    .from(medEvidence)
    .where(and(eq(medEvidence.caseId, caseId), eq(medEvidence.state, "confirmed")))
    .orderBy(desc(medEvidence.uploadedAt), desc(medEvidence.id))
    .all();
}

export function incrementEvidenceCount(db: DbOrTx, caseId: string, now: number): void {
  db.update(medCases)
    .set({ evidenceCount: sql`${medCases.evidenceCount} + 1`, updatedAt: now })
    .where(eq(medCases.id, caseId))
    .run();
}

// ---- secret of the signed URLs

/** The named HMAC secret, created (32 random bytes, hex) on first use and kept in the database. */
export function getOrCreateSecret(db: DbOrTx, name: string, now: number): string {
  const found = db.select().from(medSecrets).where(eq(medSecrets.name, name)).get();
  if (found) return found.secret;
  db.insert(medSecrets).values({ name, secret: randomHex(32), createdAt: now }).onConflictDoNothing().run();
  return db.select().from(medSecrets).where(eq(medSecrets.name, name)).get()!.secret;
}
