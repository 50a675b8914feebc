/**
 * The reconciliation repository of the storage port (see src/store/port.ts): what Cofre holds for
 * a São Paulo day of an account's live Pix (charges paid, payouts and cashout refunds sent), the
 * stored result of each reconciled day, and the MED infractions read from `efi` connections.
 * Amounts in centavos, times epoch ms (windows inclusive).
 */
import type {
  NewPspInfractionRow,
  NewReconciliationRow,
  PayoutRow,
  PspInfractionRow,
  ReconciliationRow,
  RefundRow,
  TransactionRow,
} from "../rows";

export interface ReconciliationRepo {
  /**
   * Live charges of the account paid in [fromMs, toMs] with an end-to-end id (index-free scan of the account's rows).
   */
  paidBetween(accountId: string, fromMs: number, toMs: number): Promise<TransactionRow[]>;
  /** Live transactions of the account whose end-to-end id or cob txid is one of these. */
  chargesMatching(
    accountId: string,
    endToEndIds: readonly string[],
    txids: readonly string[],
  ): Promise<TransactionRow[]>;
  /** Live payouts of the account handed to the PSP in [fromMs, toMs]. */
  payoutsSentBetween(accountId: string, fromMs: number, toMs: number): Promise<PayoutRow[]>;
  /** Live cashout refunds of the account created in [fromMs, toMs]. */
  cashoutsBetween(accountId: string, fromMs: number, toMs: number): Promise<RefundRow[]>;
  /**
   * Live payouts and cashout refunds of the account by their send id (payout `send_id`, refund `provider_refund_id`).
   */
  sentBySendIds(accountId: string, sendIds: readonly string[]): Promise<{ payouts: PayoutRow[]; refunds: RefundRow[] }>;
  /** Devolution refunds (strategy not `cashout`) of these live transactions of the account. */
  devolutionsOf(accountId: string, transactionIds: readonly string[]): Promise<RefundRow[]>;
  /** Inserts or replaces the result of (account, date). */
  saveResult(row: NewReconciliationRow): Promise<void>;
  /** The stored result of (account, date), or undefined. */
  result(accountId: string, date: string): Promise<ReconciliationRow | undefined>;
  /** Stored results of the account with `date` in [fromDate, toDate], newest first. */
  listResults(accountId: string, fromDate: string, toDate: string): Promise<ReconciliationRow[]>;

  /** Infraction `id` of the connection, or undefined. */
  infraction(connectionId: string, id: string): Promise<PspInfractionRow | undefined>;
  /** Inserts the infraction, or updates every column but the key and `created_at`. */
  putInfraction(row: NewPspInfractionRow): Promise<void>;
  /** Infractions of the account without a case (unknown end-to-end id) created at the PSP in [fromMs, toMs]. */
  unknownInfractionsBetween(accountId: string, fromMs: number, toMs: number): Promise<PspInfractionRow[]>;
  /** `psp_created_at` of the connection's oldest infraction still ABERTA or EM_DEFESA that has a case, or null. */
  oldestActiveInfraction(connectionId: string): Promise<number | null>;
  /** The infraction a MED case was opened for, or undefined. */
  infractionOfCase(caseId: string): Promise<PspInfractionRow | undefined>;
}
