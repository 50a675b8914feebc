/**
 * `GET /v1/payments/stats` and `GET /v1/payments/metrics` (interface.md), read from the daily
 * aggregates (db/schema/payments.ts, kept by triggers; src/domain/payments/aggregates.ts), never
 * from `transactions`. Cost: one primary-key range read of (account, mode, day in window), i.e.
 * O(days x currencies x methods x statuses) rows, independent of the number of transactions;
 * the median adds one range read of the time-to-pay histogram (O(days x currencies x buckets)).
 * Days are São Paulo calendar days of creation (cohorts): a transaction counts on the day it was
 * created, with its current status. "Paid" = it was paid at some point (`paid_at` set), so
 * later refunds or disputes do not remove it from the paid count or volume.
 */
import { and, eq, gte, lte, sql } from "drizzle-orm";
import { paymentDailyStats, paymentPayTimeHist } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";
import { addDays, saoPauloDate } from "../../payments/calendar";
import { PAYMENT_METHODS } from "../charges/model";
import { bucketSeconds } from "./aggregates";

/** Largest number of `dailyVolume` points (interface.md Limits). */
export const MAX_DAILY_POINTS = 366;
/** Largest `days` accepted by stats and metrics. */
export const MAX_DAYS = 3660;

interface Cell {
  day: string;
  currency: string;
  method: string;
  status: string;
  paid: number;
  count: number;
  amount: number;
  refunded: number;
}

/** Aggregate cells of (account, mode) for São Paulo days [from, to]. */
function cells(db: DbOrTx, accountId: string, livemode: boolean, from: string, to: string, currency?: string): Cell[] {
  const s = paymentDailyStats;
  const conds = [eq(s.accountId, accountId), eq(s.livemode, livemode), gte(s.day, from), lte(s.day, to)];
  if (currency) conds.push(eq(s.currency, currency));
  return db
    .select({
      day: s.day,
      currency: s.currency,
      method: s.method,
      status: s.status,
      paid: s.paid,
      count: sql<number>`sum(${s.count})`,
      amount: sql<number>`sum(${s.amount})`,
      refunded: sql<number>`sum(${s.refunded})`,
    })
    .from(s)
    .where(and(...conds))
    .groupBy(s.day, s.currency, s.method, s.status, s.paid)
    .all()
    .filter((c) => c.count > 0 || c.refunded !== 0);
}

/** Window of `days` São Paulo calendar days ending today (today included). */
export function window(nowMs: number, days: number): { from: string; to: string } {
  const to = saoPauloDate(nowMs);
  return { from: addDays(to, -(days - 1)), to };
}

export interface PaymentStats {
  totalTransactions: number;
  paidTransactions: number;
  todayTransactions: number;
  successRate: number;
  volumeByCurrency: { currency: string; volume: number; count: number }[];
  todayVolumeByCurrency: Record<string, number>;
  dailyVolume: { date: string; currencies: Record<string, number> }[];
  methodBreakdown: { method: string; volume: number; count: number }[];
}

/**
 * Stats of the last `days` days (1-MAX_DAYS). Volumes are paid amounts (minor units) per
 * currency; `successRate` = round(100 * paid / total), 0 without transactions; `dailyVolume`
 * has one point per day, oldest first, at most the 366 most recent days, each listing every
 * currency seen in the window (0 when nothing was paid that day); `methodBreakdown` lists the six
 * methods by the method that paid (volume summed across currencies).
 */
export function paymentStats(db: DbOrTx, accountId: string, livemode: boolean, nowMs: number, days: number): PaymentStats {
  const { from, to } = window(nowMs, days);
  const rows = cells(db, accountId, livemode, from, to);
  let total = 0;
  let paid = 0;
  let today = 0;
  const byCur = new Map<string, { volume: number; count: number }>();
  const todayVol: Record<string, number> = {};
  const perDay = new Map<string, Record<string, number>>();
  const byMethod = new Map<string, { volume: number; count: number }>(PAYMENT_METHODS.map((m) => [m, { volume: 0, count: 0 }]));
  for (const c of rows) {
    total += c.count;
    if (c.day === to) today += c.count;
    if (!byCur.has(c.currency)) byCur.set(c.currency, { volume: 0, count: 0 });
    if (!c.paid) continue;
    paid += c.count;
    const cur = byCur.get(c.currency)!;
    cur.volume += c.amount;
    cur.count += c.count;
    if (c.day === to) todayVol[c.currency] = (todayVol[c.currency] ?? 0) + c.amount;
    const d = perDay.get(c.day) ?? {};
    d[c.currency] = (d[c.currency] ?? 0) + c.amount;
    perDay.set(c.day, d);
    const m = byMethod.get(c.method);
    if (m) {
      m.volume += c.amount;
      m.count += c.count;
    }
  }
  const currencies = [...byCur.keys()].sort();
  const points = Math.min(days, MAX_DAILY_POINTS);
  const dailyVolume = [];
  for (let i = points - 1; i >= 0; i--) {
    const date = addDays(to, -i);
    const d = perDay.get(date) ?? {};
    dailyVolume.push({ date, currencies: Object.fromEntries(currencies.map((c) => [c, d[c] ?? 0])) });
  }
  return {
    totalTransactions: total,
    paidTransactions: paid,
    todayTransactions: today,
    successRate: total === 0 ? 0 : Math.round((100 * paid) / total),
    volumeByCurrency: currencies.map((currency) => ({ currency, ...byCur.get(currency)! })),
    todayVolumeByCurrency: todayVol,
    dailyVolume,
    methodBreakdown: [...byMethod.entries()].map(([method, v]) => ({ method, ...v })),
  };
}

export interface FunnelStep {
  count: number;
  volume: number;
}

export interface PaymentMetrics {
  days: number;
  currency: string | null;
  from: string;
  to: string;
  timeZone: "America/Sao_Paulo";
  created: FunnelStep;
  paid: FunnelStep;
  failed: FunnelStep;
  expired: FunnelStep;
  cancelled: FunnelStep;
  refunded: FunnelStep;
  inFlight: FunnelStep;
  disputed: FunnelStep;
  conversionRate: number;
  medianTimeToPaySeconds: number | null;
  averageTicket: number | null;
}

const step = (): FunnelStep => ({ count: 0, volume: 0 });

/**
 * Conversion funnel of the transactions created in the last `days` days (no 366 cap), optionally
 * of one currency. Counts and volumes (amounts, minor units) by outcome: `created` all; `paid`
 * ever paid; `failed` REFUSED; `expired` EXPIRED; `cancelled` CANCELLED; `refunded` count of
 * fully refunded (REFUNDED) and volume of all refunded amounts (partial included, failed refunds
 * excluded); `inFlight` PENDING/WAITING_PAYMENT/PROCESSING; `disputed` CHARGEBACK/DISPUTE.
 * `conversionRate` = paid/created in percent with 2 decimals; `medianTimeToPaySeconds` from the
 * 5%-wide histogram (null when nothing was paid); `averageTicket` = paid volume / paid count.
 */
export function paymentMetrics(
  db: DbOrTx,
  accountId: string,
  livemode: boolean,
  nowMs: number,
  days: number,
  currency?: string,
): PaymentMetrics {
  const { from, to } = window(nowMs, days);
  const m = {
    created: step(),
    paid: step(),
    failed: step(),
    expired: step(),
    cancelled: step(),
    refunded: step(),
    inFlight: step(),
    disputed: step(),
  };
  const add = (s: FunnelStep, c: Cell) => {
    s.count += c.count;
    s.volume += c.amount;
  };
  for (const c of cells(db, accountId, livemode, from, to, currency)) {
    add(m.created, c);
    if (c.paid) add(m.paid, c);
    if (c.status === "REFUSED") add(m.failed, c);
    if (c.status === "EXPIRED") add(m.expired, c);
    if (c.status === "CANCELLED") add(m.cancelled, c);
    if (c.status === "REFUNDED") m.refunded.count += c.count;
    m.refunded.volume += c.refunded;
    if (c.status === "PENDING" || c.status === "WAITING_PAYMENT" || c.status === "PROCESSING") add(m.inFlight, c);
    if (c.status === "CHARGEBACK" || c.status === "DISPUTE") add(m.disputed, c);
  }
  return {
    days,
    currency: currency ?? null,
    from,
    to,
    timeZone: "America/Sao_Paulo",
    ...m,
    conversionRate: m.created.count === 0 ? 0 : Math.round((10000 * m.paid.count) / m.created.count) / 100,
    medianTimeToPaySeconds: medianTimeToPay(db, accountId, livemode, from, to, currency),
    averageTicket: m.paid.count === 0 ? null : Math.round(m.paid.volume / m.paid.count),
  };
}

function medianTimeToPay(db: DbOrTx, accountId: string, livemode: boolean, from: string, to: string, currency?: string): number | null {
  const h = paymentPayTimeHist;
  const conds = [eq(h.accountId, accountId), eq(h.livemode, livemode), gte(h.day, from), lte(h.day, to)];
  if (currency) conds.push(eq(h.currency, currency));
  const buckets = db
    .select({ bucket: h.bucket, n: sql<number>`sum(${h.count})` })
    .from(h)
    .where(and(...conds))
    .groupBy(h.bucket)
    .orderBy(h.bucket)
    .all()
    .filter((b) => b.n > 0);
  const total = buckets.reduce((a, b) => a + b.n, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const b of buckets) {
    seen += b.n;
    if (seen * 2 >= total) return Math.round(bucketSeconds(b.bucket));
  }
  return null;
}
