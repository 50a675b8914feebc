/**
 * Public API of the double-entry ledger (issue 4). All amounts are integers in the minor unit
 * (centavos for BRL); `uow` is the caller's unit of work (`deps.store.tx(async (uow) => ...)`), so
 * the journal entry commits or rolls back with the business change that caused it. Reads take
 * `deps.store.read` (or the uow). SQL lives in the adapter (src/store/sqlite/ledger.ts).
 *
 * Idempotency: every posting carries a unique key derived from its cause (e.g. `charge_payment:<transactionId>`).
 * Calling an operation a second time with the same cause is a NO-OP (nothing is posted, no error).
 */
import type { MerchantBalance } from "../../store/port/ledger";

export interface CreditChargePaymentInput {
  accountId: string;
  livemode: boolean;
  /** ISO 4217, upper case (e.g. "BRL"). */
  currency: string;
  /** Gross paid amount, minor units (> 0). */
  amount: number;
  /** Platform fee, minor units (0 <= fee <= amount); see `pixFee()` in src/domain/accounts/settings.ts. */
  fee: number;
  /** The paid charge/transaction id: the cause of the posting and the idempotency key. */
  transactionId: string;
}

export interface DebitRefundInput {
  accountId: string;
  livemode: boolean;
  currency: string;
  /** Refunded amount, minor units (> 0). */
  amount: number;
  /** Refund id: the cause of the posting and the idempotency key. */
  refundId: string;
  /** The charge/transaction being refunded (its unreleased pending tranche may be used). */
  transactionId: string;
  /** Optional Pix-out fee (passFeeToTenant), minor units, debited from `available` to platform revenue. */
  pixOutFee?: number;
}

export interface HoldMedInput {
  accountId: string;
  livemode: boolean;
  currency: string;
  /** Held amount, minor units (> 0). */
  amount: number;
  medCaseId: string;
}

export type MedOutcome = "refunded_to_merchant" | "closed_without_refund" | "lost";

export interface SettleMedHoldInput {
  medCaseId: string;
  outcome: MedOutcome;
}

/** Balance of one merchant (account, mode, currency), minor units; `nextReleaseAt` epoch ms. */
export type Balance = MerchantBalance;

export interface LedgerMismatch {
  /**
   * "balance" (materialised != recomputed), "entry_unbalanced" (lines do not sum to zero), "tranche", "negative",
   * "payout" (in transit != payouts in flight).
   */
  kind: string;
  accountId?: string;
  livemode?: boolean;
  currency?: string;
  ledgerAccount?: string;
  entryId?: string;
  trancheId?: string;
  expected?: number;
  actual?: number;
  message: string;
}

export interface LedgerReport {
  ok: boolean;
  /** Number of balances + entries + tranches checked. */
  checked: number;
  mismatches: LedgerMismatch[];
}

export {
  creditChargePayment,
  debitRefund,
  restoreRefund,
  holdMed,
  settleMedHold,
  LEDGER_RELEASE_JOB,
  registerLedgerJobs,
} from "./service";
export { getBalance, getBalances, listCurrencies } from "./balances";
export { debitPayout, settlePayout, reversePayout, type DebitPayoutInput } from "./payouts";
export { verifyLedger } from "./verify";
/**
 * Thrown on a broken ledger rule (bad amount, fee above amount, settle without hold): a caller bug, rolls the unit
 * back.
 */
export { LedgerInvariantError } from "./post";
export type { LedgerReader, LedgerUnit } from "./unit";

// Signatures (for reference; implemented in ./service, ./balances, ./verify). Each money call
// checks its `uow` synchronously and resolves once the entry is written in the caller's unit:
//   creditChargePayment(deps, uow, p: CreditChargePaymentInput): Promise<{ releaseAt: number }>
//     gross from the external payer; amount-fee to `pending`; fee to platform revenue; one tranche
//     released to `available` at now + settlement_delay_seconds by job "ledger.release_tranche".
//   debitRefund(deps, uow, p: DebitRefundInput): Promise<void>
//     from `available`, then from the unreleased pending tranche of p.transactionId;
//     rejects with DomainError("insufficient_balance") (400) when still short. pixOutFee from available.
//   restoreRefund(deps, uow, p: { refundId: string }): Promise<void>  exact reversal of debitRefund.
//   holdMed(deps, uow, p: HoldMedInput): Promise<void>  available -> retained (available may go negative).
//   settleMedHold(deps, uow, p: SettleMedHoldInput): Promise<void>
//     refunded_to_merchant: retained -> available; lost / closed_without_refund: retained -> external payer.
//   getBalance(reader, accountId, livemode, currency): Promise<Balance>   O(1) reads (reader: deps.store.read or uow).
//   verifyLedger(reader): Promise<LedgerReport>
