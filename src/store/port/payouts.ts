/**
 * The payouts and payout destinations repositories of the storage port (see src/store/port.ts;
 * extensions.md "Payouts (money out)"). Amounts in centavos, times epoch ms. Every method is
 * asynchronous; inside `store.tx` it runs in the unit of work.
 */
import type { NewPayoutDestinationRow, PayoutDestinationRow, PayoutRow } from "../rows";

/** Registered destinations (account-wide, both modes; removal is a soft delete). */
export interface PayoutDestinationsRepo {
  insert(row: NewPayoutDestinationRow): Promise<void>;
  /** The account's destination `id`, removed ones included (their `deletedAt` set), or undefined. */
  byIdScoped(accountId: string, id: string): Promise<PayoutDestinationRow | undefined>;
  /** The account's destinations not removed, newest first (created_at, then id). */
  listActive(accountId: string): Promise<PayoutDestinationRow[]>;
  /** Marks the destination removed at `now`; false when it is unknown, another account's or already removed. */
  softDelete(accountId: string, id: string, now: number): Promise<boolean>;
}

/** A page of payouts of (account, mode), newest first. */
export interface PayoutListQuery {
  accountId: string;
  livemode: boolean;
  /** Page size; the repository returns up to `limit + 1` rows (the extra one tells `has_more`). */
  limit: number;
  /** Row the page starts after (newest first). */
  after?: Pick<PayoutRow, "id" | "createdAt">;
  status?: string;
  /** Epoch ms, inclusive. */
  createdFromMs?: number;
  /** Epoch ms, inclusive. */
  createdToMs?: number;
}

/** Payouts (`po_...`). */
export interface PayoutsRepo {
  insert(row: PayoutRow): Promise<void>;
  /** The payout `id` whatever its account (jobs), or undefined. */
  byId(id: string): Promise<PayoutRow | undefined>;
  /** The payout `id` of (account, mode), or undefined (another account's or mode's is undefined too). */
  byIdScoped(accountId: string, livemode: boolean, id: string): Promise<PayoutRow | undefined>;
  /** The payout whose send id (Efí's `idEnvio`) is `sendId`, or undefined. */
  bySendId(sendId: string): Promise<PayoutRow | undefined>;
  /**
   * A conditional write: applies `patch` to payout `id` only while its status is still `from`, and
   * returns the row as stored after it; undefined (nothing written) when it is gone or has moved
   * since it was read (one move per status, whoever races).
   */
  moveFrom(id: string, from: string, patch: Partial<PayoutRow>): Promise<PayoutRow | undefined>;
  list(q: PayoutListQuery): Promise<PayoutRow[]>;
  /**
   * Sum of `amount` of the payouts of (account, mode) created in [fromMs, toMs) whose status is
   * not failed or cancelled, centavos (the daily limit). Inside a unit, call it after taking the
   * account's debit lock (`ledger.accountBalance`) so concurrent payouts count each other.
   */
  sumActiveCreated(accountId: string, livemode: boolean, fromMs: number, toMs: number): Promise<number>;
  /**
   * Full scan (`cofre ledger verify` only): per (account, mode, currency), the sum of `amount` of
   * the payouts still in flight (`pending`, `processing`), which the ledger's `payout_in_transit` must hold.
   */
  inFlightTotals(): Promise<{ accountId: string; livemode: boolean; currency: string; amount: number }[]>;
}
