/**
 * The charges repository of the storage port (see src/store/port.ts): `transactions` (charges and
 * payments), `create_intents` (live PSP create intents), `pix_signing_keys` (the Pix location's
 * JWS key) and `sandbox_provider_faults`. Amounts in centavos, times in epoch ms.
 */
import type {
  CreateIntentRow,
  NewCreateIntentRow,
  NewPixSigningKeyRow,
  PixSigningKeyRow,
  TransactionRow,
} from "../rows";

/**
 * The account rules a create applies (the same fields as the domain's `AccountRules`): fees in
 * basis points and centavos, windows in seconds; null velocity limits are off.
 */
export interface ChargeAccountRules {
  payer_lock_enabled: boolean;
  default_expires_in: number;
  pix_fee_bps: number;
  pix_fee_fixed: number;
  settlement_delay_seconds: number;
  customer_velocity_max: number | null;
  account_velocity_max: number | null;
  velocity_window_seconds: number;
}

/** What a create reads of its account: the BR Code receiver name and the rules. */
export interface CreateAccount {
  name: string;
  settings: ChargeAccountRules;
}

/** Alive transactions of (account, mode) created at or after `sinceMs`, optionally of one payer document. */
export interface AliveQuery {
  accountId: string;
  livemode: boolean;
  /** Stored statuses that count: the domain's `ALIVE` group (src/domain/charges/model.ts). */
  statuses: readonly string[];
  /** Epoch ms. */
  sinceMs: number;
  /** Normalized CPF/CNPJ: matches the customer document or the expected payer tax id. */
  document?: string;
}

/** A page of charges (transactions offering PIX), newest first. */
export interface ChargeListQuery {
  accountId: string;
  livemode: boolean;
  /** Page size; the repository returns up to `limit + 1` rows (the extra one tells `has_more`). */
  limit: number;
  /** Row the page starts after (newest first). */
  after?: Pick<TransactionRow, "id" | "createdAt">;
  /** Stored statuses (`WAITING_PAYMENT`, ...). */
  statuses?: string[];
  /** Epoch ms, inclusive. */
  createdFromMs?: number;
  /** Epoch ms, inclusive. */
  createdToMs?: number;
  /** Normalized payer document (customer document or expected payer tax id). */
  document?: string;
}

/** The idempotency key an intent belongs to. */
export interface IntentKey {
  accountId: string;
  livemode: boolean;
  /** Idempotency scope, e.g. `POST /v1/charges`. */
  scope: string;
  key: string;
}

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. */
export interface ChargesRepo {
  // -- transactions --------------------------------------------------------------------------
  /** The transaction `id` of (account, mode), or undefined. GET /v1/charges/:id hot path (one prepared statement). */
  byScopedId(accountId: string, livemode: boolean, id: string): Promise<TransactionRow | undefined>;
  /** The transaction `id` whatever its account (public pages, jobs, other aggregates), or undefined. */
  byId(id: string): Promise<TransactionRow | undefined>;
  /**
   * The transaction `id` read before a status transition inside a unit of work (settlement,
   * expiry, returns): a plain read on SQLite (units never interleave), `FOR UPDATE` on PostgreSQL.
   */
  lockForChange(id: string): Promise<TransactionRow | undefined>;
  /** The transaction whose cob txid is `txid`, or undefined. */
  byTxid(txid: string): Promise<TransactionRow | undefined>;
  /**
   * The transactions of (account, mode) whose cob txid is one of `txids`, in one indexed read
   * (`tx_txid_uq`): a provider callback's whole batch is matched at once and unknown txids cost
   * nothing more (issue 30 §1). Any order; txids naming nothing of the scope are simply absent.
   */
  byTxids(accountId: string, livemode: boolean, txids: readonly string[]): Promise<TransactionRow[]>;
  /** Inserts `row` (every column; create hot path: one prepared statement). */
  insert(row: TransactionRow): Promise<void>;
  /** Applies `patch` to the row `id` and returns the updated row (throws when there is no such row). */
  update(id: string, patch: Partial<TransactionRow>): Promise<TransactionRow>;
  /**
   * Applies `patch` to row `id` only while its status is still `fromStatus` (a conditional write);
   * returns the updated row, or undefined when the row is gone or its status changed.
   */
  transition(id: string, fromStatus: string, patch: Partial<TransactionRow>): Promise<TransactionRow | undefined>;
  /**
   * How many transactions in `q.statuses` (the alive ones: pending, processing, paid) match `q` (the velocity guard).
   */
  countAlive(q: AliveQuery): Promise<number>;
  /** Up to `q.limit + 1` charges of `q`, newest first (`created_at` desc, `id` desc). */
  list(q: ChargeListQuery): Promise<TransactionRow[]>;
  /**
   * Ids of waiting Pix charges (no live connection) with `expires_at <= nowMs`, oldest expiry first, at most `limit`.
   */
  dueForExpiry(nowMs: number, limit: number): Promise<string[]>;
  /** Earliest `expires_at` (epoch ms) of a waiting Pix charge after `nowMs`, or null. */
  nextExpiryAfter(nowMs: number): Promise<number | null>;
  /** Earliest `expires_at` (epoch ms) of any waiting Pix charge, or null. */
  firstExpiry(): Promise<number | null>;
  /** Name and rules of account `accountId` (create hot path: one prepared statement), or undefined. */
  accountForCreate(accountId: string): Promise<CreateAccount | undefined>;
  /** The account's name (the BR Code receiver and checkout merchant), or undefined when gone. */
  merchantName(accountId: string): Promise<string | undefined>;

  // -- create intents (src/domain/charges/intents.ts) ----------------------------------------
  /** The open intent of an idempotency key, or undefined. */
  intentOf(key: IntentKey): Promise<CreateIntentRow | undefined>;
  /** Open intents created at or before `beforeMs`, oldest first, at most `limit`. */
  staleIntents(beforeMs: number, limit: number): Promise<CreateIntentRow[]>;
  /** Whether any intent is open (one indexed read). */
  hasOpenIntents(): Promise<boolean>;
  /** Stores a new open intent. */
  openIntent(row: NewCreateIntentRow): Promise<void>;
  /** Deletes intent `id`; true when this call deleted it (false: already gone). */
  dropIntent(id: string): Promise<boolean>;

  // -- Pix location signing keys (src/domain/charges/location.ts) ----------------------------
  /** The oldest stored signing key, or undefined before the first one. */
  signingKey(): Promise<PixSigningKeyRow | undefined>;
  /** Stores a signing key. */
  addSigningKey(row: NewPixSigningKeyRow): Promise<void>;

  // -- sandbox provider faults (src/domain/charges/faults.ts) --------------------------------
  /** Replaces the account's pending faults with `count` of `mode` (`updatedAt` epoch ms). */
  setFaults(accountId: string, mode: string, count: number, updatedAt: number): Promise<void>;
  /** Pending faults of the account (0 when none; create hot path: one prepared read). */
  faultsLeft(accountId: string): Promise<number>;
  /**
   * Takes one pending fault of the account (decrements, deleting the row at 0); its mode, or null when none was left.
   */
  takeFault(accountId: string): Promise<string | null>;
}
