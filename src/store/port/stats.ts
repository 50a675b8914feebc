/** The stats repository of the storage port (methods in domain terms; see src/store/port.ts). */

/**
 * One cell of the daily aggregates (`payment_daily_stats`, kept by triggers on `transactions`):
 * the transactions of (account, mode) created on São Paulo day `day` (YYYY-MM-DD) with this
 * currency, paying method (`""` while unpaid), status and paid flag (1 = `paid_at` set).
 * `amount` and `refunded` are sums in centavos (minor units).
 */
export interface StatsCell {
  day: string;
  currency: string;
  method: string;
  status: string;
  paid: number;
  count: number;
  amount: number;
  refunded: number;
}

/**
 * A window of São Paulo days split for the time-to-pay histogram: whole months read from the
 * monthly roll-up (`months`, YYYY-MM inclusive) and the edge days read day by day (`head`,
 * `tail`, YYYY-MM-DD inclusive). An empty range is inverted (from > to).
 */
export interface PayTimeRanges {
  head: [string, string];
  months: [string, string];
  tail: [string, string];
}

/**
 * A bucket of the time-to-pay histogram (`paid_at - created_at`; buckets 5% wide): `seconds` at
 * its geometric middle, `n` the paid transactions in it.
 */
export interface PayTimeBucket {
  seconds: number;
  n: number;
}

/**
 * Reads of the trigger-kept payment aggregates (stats and metrics, interface.md
 * `GET /v1/payments/stats`, `/metrics`): cost independent of the number of transactions.
 * Every method is asynchronous; inside `store.tx` it runs in the unit of work.
 */
export interface StatsRepo {
  /**
   * Cells of (account, mode) for São Paulo days [from, to] (YYYY-MM-DD, inclusive), optionally of
   * one currency: one primary-key range read. Cells emptied by later changes (count and refunded
   * 0) are included; callers skip them.
   */
  cells(accountId: string, livemode: boolean, from: string, to: string, currency?: string): Promise<StatsCell[]>;
  /**
   * Time-to-pay histogram of (account, mode) over `ranges`, optionally of one currency: buckets ascending by time,
   * counts summed (empty buckets left out).
   */
  payTimeBuckets(
    accountId: string,
    livemode: boolean,
    ranges: PayTimeRanges,
    currency?: string,
  ): Promise<PayTimeBucket[]>;
}

/**
 * Time-to-pay bucket index -> seconds at the bucket's geometric middle: bucket b holds
 * [1.05^b - 1, 1.05^(b+1) - 1) seconds (the aggregates of both adapters bucket that way).
 */
export function bucketSeconds(b: number): number {
  return Math.exp((b + 0.5) * Math.log(1.05)) - 1;
}
