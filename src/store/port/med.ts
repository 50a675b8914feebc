/** The med repository of the storage port (methods in domain terms; see src/store/port.ts). */
import type { MedCaseRow, MedEvidenceRow, NewMedCaseRow, NewMedEvidenceRow } from "../rows";

/** The account and mode a MED read is confined to. */
export interface MedScope {
  accountId: string;
  livemode: boolean;
}

/** Filters of a case listing (interface.md "MED cases" list query), already validated. */
export interface CaseListFilter {
  status?: string;
  type?: string;
  transactionId?: string;
  /** Exclusive bounds, epoch ms. */
  createdAfter?: number;
  createdBefore?: number;
  /** Cursor: rows strictly older than this case (created_at, id). */
  after?: { createdAt: number; id: string };
  limit: number;
}

/**
 * MED cases, their evidence, the HMAC secret of the signed evidence URLs, and the two fields of
 * the disputed transaction MED writes (status, `metadata.med`). Every method is asynchronous;
 * inside `store.tx` it runs in the unit of work. Amounts in centavos, times epoch ms.
 */
export interface MedRepo {
  /** Inserts a case and returns it as stored. */
  insertCase(row: NewMedCaseRow): Promise<MedCaseRow>;
  /** The case `id` of the scope's account and mode, or undefined. */
  caseInScope(scope: MedScope, id: string): Promise<MedCaseRow | undefined>;
  /** The case `id` whatever its account (operator and job use only). */
  caseById(id: string): Promise<MedCaseRow | undefined>;
  /** The case of the account opened by the provider notice `externalId`, or undefined. */
  caseByExternalId(accountId: string, externalId: string): Promise<MedCaseRow | undefined>;
  /** A case of the transaction whose status is not one of `finalStatuses` (at most one exists). */
  activeCaseOfTransaction(transactionId: string, finalStatuses: readonly string[]): Promise<MedCaseRow | undefined>;
  /** Applies `patch` to the case and returns it as stored. */
  updateCase(id: string, patch: Partial<NewMedCaseRow>): Promise<MedCaseRow>;
  /** Cases of `scope` newest first (created_at desc, id desc); `limit + 1` rows to tell has_more. */
  listCases(scope: MedScope, filter: CaseListFilter): Promise<MedCaseRow[]>;
  /** Adds one to the case's confirmed evidence count and sets `updated_at`. */
  incrementEvidenceCount(caseId: string, now: number): Promise<void>;

  /** The `metadata.med` block of the transaction (empty object when none or unreadable). */
  chargeMed(transactionId: string): Promise<Record<string, unknown>>;
  /**
   * Sets the transaction's `metadata.med` block (keeping its other metadata) and `updated_at`. Never
   * its status: that moves through the transaction state machine (src/domain/charges/transition.ts).
   */
  writeChargeMed(transactionId: string, med: Record<string, unknown>, now: number): Promise<void>;

  /** Inserts an evidence row and returns it as stored. */
  insertEvidence(row: NewMedEvidenceRow): Promise<MedEvidenceRow>;
  /** Evidence `id` of the case `caseId`, or undefined. */
  evidenceOfCase(caseId: string, id: string): Promise<MedEvidenceRow | undefined>;
  /** Evidence `id` whatever its case, or undefined. */
  evidenceById(id: string): Promise<MedEvidenceRow | undefined>;
  /** Applies `patch` to the evidence row and returns it as stored. */
  updateEvidence(id: string, patch: Partial<NewMedEvidenceRow>): Promise<MedEvidenceRow>;
  /** Confirmed evidence of a case, newest first (uploaded_at desc, id desc). */
  confirmedEvidence(caseId: string): Promise<MedEvidenceRow[]>;

  /** The named HMAC secret of the signed URLs (hex), or undefined before its first use. */
  secret(name: string): Promise<string | undefined>;
  /** Stores `secret` under `name` unless one exists, and returns the one kept (first writer wins). */
  keepSecret(name: string, secret: string, now: number): Promise<string>;
}
