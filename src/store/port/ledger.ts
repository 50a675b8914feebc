/** The ledger repository of the storage port (methods in domain terms; see src/store/port.ts). */
import type { LedgerEntryRow, LedgerLineRow, LedgerTrancheRow, NewLedgerTrancheRow } from "../rows";

/**
 * One journal entry as `post` writes it: the domain (src/domain/ledger/post.ts) has already
 * merged, checked and balanced the lines. Amounts signed, minor units (centavos); `now` epoch ms.
 */
export interface LedgerPosting {
  id: string;
  accountId: string;
  livemode: boolean;
  currency: string;
  kind: string;
  causeKind: string;
  causeId: string;
  idempotencyKey: string;
  /** JSON text or null. */
  meta: string | null;
  /**
   * `mayGoNegative`: the domain lets this line's ledger account end below zero (external_payer;
   * `available` under a MED hold), so its balance after the line needs no exact, locked read.
   */
  lines: { ledgerAccount: string; amount: number; trancheId: string | null; mayGoNegative: boolean }[];
  now: number;
}

/** Balance of one merchant (account, mode, currency), minor units; `nextReleaseAt` epoch ms. */
export interface MerchantBalance {
  available: number;
  pending: number;
  retained: number;
  /** Earliest release time of an unreleased pending tranche (epoch ms), or null. */
  nextReleaseAt: number | null;
  /** Sum of the tranches released at `nextReleaseAt`, or null. */
  nextReleaseAmount: number | null;
}

/** What the integrity check reads (full scans; `cofre ledger verify` and tests only). */
export interface LedgerScan {
  /** Every entry with its number of lines and their sum. */
  entries: { id: string; lines: number; total: number }[];
  /** (entry, currency) pairs whose lines do not sum to zero. */
  unbalancedCurrencies: { entryId: string; currency: string; total: number }[];
  /**
   * Every materialised balance with the sum of its lines, plus line groups without a balance row (`materialised` null).
   */
  balances: {
    accountId: string;
    livemode: boolean;
    currency: string;
    ledgerAccount: string;
    materialised: number | null;
    recomputed: number;
  }[];
  /** Every tranche with the sum of its `pending` lines. */
  tranches: {
    id: string;
    accountId: string;
    livemode: boolean;
    currency: string;
    remaining: number;
    releasedAt: number | null;
    pendingTotal: number;
  }[];
  /** Number of `pending` lines without a tranche or naming an unknown one. */
  orphanPendingLines: number;
}

/** The raw rows of the integrity scan, as each adapter's five queries return them (snake_case columns). */
export interface LedgerScanRows {
  entries: Record<string, unknown>[];
  perCurrency: Record<string, unknown>[];
  balances: Record<string, unknown>[];
  tranches: Record<string, unknown>[];
  orphans: Record<string, unknown>[];
}

/** The LedgerScan of the raw rows (numbers from whatever the driver returned: int, bigint text, numeric text). */
export function ledgerScanOf({ entries, perCurrency, balances, tranches, orphans }: LedgerScanRows): LedgerScan {
  return {
    entries: entries.map((e) => ({ id: String(e.id), lines: Number(e.n), total: Number(e.total) })),
    unbalancedCurrencies: perCurrency.map((r) => ({
      entryId: String(r.entry_id),
      currency: String(r.currency),
      total: Number(r.total),
    })),
    balances: balances.map((b) => ({
      accountId: String(b.account_id),
      livemode: Boolean(b.livemode),
      currency: String(b.currency),
      ledgerAccount: String(b.ledger_account),
      materialised: b.materialised === null ? null : Number(b.materialised),
      recomputed: Number(b.recomputed),
    })),
    tranches: tranches.map((t) => ({
      id: String(t.id),
      accountId: String(t.account_id),
      livemode: Boolean(t.livemode),
      currency: String(t.currency),
      remaining: Number(t.remaining),
      releasedAt: t.released_at === null ? null : Number(t.released_at),
      pendingTotal: Number(t.total),
    })),
    orphanPendingLines: Number(orphans[0]?.n ?? 0),
  };
}

/**
 * One journal entry of a merchant as the statement reads it (src/domain/ledger/statement.ts,
 * extensions.md "Statement, exports and reconciliation"). Minor units, epoch ms.
 */
export interface StatementEntry {
  id: string;
  kind: string;
  causeKind: string;
  causeId: string;
  createdAt: number;
  /** Sum of the entry's lines on `available` and `pending`: its change of the wallet's total. */
  total: number;
  /** Sum of its `platform_fee_revenue` lines (what the merchant paid in fees; negative when given back). */
  fee: number;
  /** Latest `release_at` of the tranches its positive `pending` lines credit, or null. */
  releaseAt: number | null;
}

/** A position in the statement's order (newest first: `created_at` desc, then entry id desc). */
export interface StatementPosition {
  createdAt: number;
  id: string;
}

/** Which statement entries to read (`statementEntries`). */
export interface StatementQuery {
  accountId: string;
  livemode: boolean;
  currency: string;
  /** Inclusive bounds on `created_at`, epoch ms. */
  fromMs: number;
  toMs: number;
  /** Start after this entry (newest-first order), or at it when `inclusive`; absent: the newest. */
  after?: StatementPosition;
  inclusive?: boolean;
  limit: number;
}

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. Amounts in centavos, times epoch ms. */
export interface LedgerRepo {
  /** The entry posted under `idempotencyKey`, if any. */
  entryByKey(idempotencyKey: string): Promise<LedgerEntryRow | undefined>;
  /** Lines of one entry, in insertion order. */
  entryLines(entryId: string): Promise<LedgerLineRow[]>;
  /** Materialised balance of one ledger account (0 when it never moved). */
  accountBalance(accountId: string, livemode: boolean, currency: string, ledgerAccount: string): Promise<number>;
  /**
   * Writes the entry, its lines and adds each line to its materialised balance (one statement
   * group, one await). Returns the balance of each line's ledger account right after that line,
   * in line order, so the domain can refuse a negative one (throwing rolls the unit back).
   */
  post(entry: LedgerPosting): Promise<number[]>;
  /**
   * Merchant balances (available, pending, retained and the next release) of (account, mode),
   * one per currency of `currencies`, in that order: O(1) each, prepared statements (wallet routes).
   */
  merchantBalances(accountId: string, livemode: boolean, currencies: readonly string[]): Promise<MerchantBalance[]>;
  /** Currencies in which (account, mode) has any merchant balance row, sorted. */
  merchantCurrencies(accountId: string, livemode: boolean): Promise<string[]>;
  /**
   * `first`, then every other currency of `merchantCurrencies`, each with its `merchantBalances`
   * entry: GET /v1/wallets/balance and GET /v1/wallets in one read (one await; hot path).
   */
  merchantBalanceSheet(
    accountId: string,
    livemode: boolean,
    first: string,
  ): Promise<{ currency: string; balance: MerchantBalance }[]>;
  /** The tranche of one paid transaction (any state), or undefined. */
  trancheOfTransaction(
    accountId: string,
    livemode: boolean,
    transactionId: string,
  ): Promise<LedgerTrancheRow | undefined>;
  /** One tranche by id. */
  tranche(trancheId: string): Promise<LedgerTrancheRow | undefined>;
  /** Inserts a new pending tranche. */
  insertTranche(row: NewLedgerTrancheRow): Promise<void>;
  /** Sets the unreleased remainder of a tranche (no-op once released). */
  setTrancheRemaining(trancheId: string, remaining: number): Promise<void>;
  /** Marks a tranche released at `now` with nothing remaining. */
  markTrancheReleased(trancheId: string, now: number): Promise<void>;
  /** Reads everything the integrity check recomputes (see LedgerScan). */
  scan(): Promise<LedgerScan>;
  /**
   * Statement entries of (account, mode, currency) newest first: only entries that move the
   * wallet's total or carry a fee (a tranche release, a paid payout, a lost MED hold are not).
   * One indexed range scan (`ledger_entries_statement_idx`) plus the lines of each entry read.
   */
  statementEntries(q: StatementQuery): Promise<StatementEntry[]>;
  /** The entry `entryId` of (account, mode) as a statement position, or undefined (a cursor of another account). */
  statementPosition(
    accountId: string,
    livemode: boolean,
    entryId: string,
  ): Promise<(StatementPosition & { currency: string }) | undefined>;
  /**
   * The wallet's total (available + pending) right after the entry at `at` (without `id`: after
   * every entry created at or before `at.createdAt`), summed in one statement from the side of
   * `at` that is shorter in time: the lines of the entries up to it, or the materialised balances
   * minus the lines of the entries after it (nothing to sum for the newest page).
   */
  statementTotalAt(
    accountId: string,
    livemode: boolean,
    currency: string,
    at: { createdAt: number; id?: string },
  ): Promise<number>;
}
