/**
 * `GET /v1/payments/stats` and `GET /v1/payments/metrics` (interface.md), read from the daily
 * aggregates (db/schema/payments.ts, kept by triggers; src/store/sqlite/stats-aggregates.ts) through
 * the stats repository, never
 * from `transactions`. Cost: one primary-key range read of (account, mode, day in window), i.e.
 * O(days x currencies x methods x statuses) rows, independent of the number of transactions;
 * the median adds one range read of the time-to-pay histogram (O(days x currencies x buckets)).
 * Days are São Paulo calendar days of creation (cohorts): a transaction counts on the day it was
 * created, with its current status. "Paid" = it was paid at some point (`paid_at` set), so
 * later refunds or disputes do not remove it from the paid count or volume.
 */
import type { Deps } from "../deps";
import { addDays, saoPauloDate } from "../../lib/calendar";
import type { StatsCell } from "../../store/port/stats";
import { DISPUTED, IN_FLIGHT, isIn, PAYMENT_METHODS } from "../charges/model";

/** Largest number of `dailyVolume` points (interface.md Limits). */
export const MAX_DAILY_POINTS = 366;
/** Largest `days` accepted by stats and metrics. */
export const MAX_DAYS = 3660;

type Cell = StatsCell;

/** Non-empty aggregate cells of (account, mode) for São Paulo days [from, to], optionally of one currency. */
async function cells(
  deps: Pick<Deps, "store">,
  accountId: string,
  livemode: boolean,
  from: string,
  to: string,
  currency?: string,
): Promise<Cell[]> {
  const rows = await deps.store.read.stats.cells(accountId, livemode, from, to, currency);
  return rows.filter((c) => c.count !== 0 || c.refunded !== 0);
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
export async function paymentStats(
  deps: Pick<Deps, "store">,
  accountId: string,
  livemode: boolean,
  nowMs: number,
  days: number,
): Promise<PaymentStats> {
  const { from, to } = window(nowMs, days);
  const rows = await cells(deps, accountId, livemode, from, to);
  let total = 0;
  let paid = 0;
  let today = 0;
  const byCur = new Map<string, { volume: number; count: number }>();
  const todayVol: Record<string, number> = {};
  const perDay = new Map<string, Record<string, number>>();
  const byMethod = new Map<string, { volume: number; count: number }>(
    PAYMENT_METHODS.map((m) => [m, { volume: 0, count: 0 }]),
  );
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
export async function paymentMetrics(
  deps: Pick<Deps, "store">,
  accountId: string,
  livemode: boolean,
  nowMs: number,
  days: number,
  currency?: string,
): Promise<PaymentMetrics> {
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
  for (const c of await cells(deps, accountId, livemode, from, to, currency)) {
    add(m.created, c);
    if (c.paid) add(m.paid, c);
    if (c.status === "REFUSED") add(m.failed, c);
    if (c.status === "EXPIRED") add(m.expired, c);
    if (c.status === "CANCELLED") add(m.cancelled, c);
    if (c.status === "REFUNDED") m.refunded.count += c.count;
    m.refunded.volume += c.refunded;
    if (isIn(IN_FLIGHT, c.status)) add(m.inFlight, c);
    if (isIn(DISPUTED, c.status)) add(m.disputed, c);
  }
  return {
    days,
    currency: currency ?? null,
    from,
    to,
    timeZone: "America/Sao_Paulo",
    ...m,
    conversionRate: m.created.count === 0 ? 0 : Math.round((10000 * m.paid.count) / m.created.count) / 100,
    medianTimeToPaySeconds: await medianTimeToPay(deps, accountId, livemode, from, to, currency),
    averageTicket: m.paid.count === 0 ? null : Math.round(m.paid.volume / m.paid.count),
  };
}

/**
 * Splits days [from, to] into whole months (read from the monthly roll-up) and the partial edge
 * ranges before and after them (read day by day). Empty ranges are returned inverted.
 */
export function splitWindow(
  from: string,
  to: string,
): { head: [string, string]; months: [string, string]; tail: [string, string] } {
  const firstFull = from.endsWith("-01") ? from : `${addDays(`${from.slice(0, 7)}-28`, 4).slice(0, 7)}-01`;
  const nextOfTo = addDays(to, 1);
  const lastFullEnd = nextOfTo.endsWith("-01") ? to : addDays(`${to.slice(0, 7)}-01`, -1);
  if (firstFull > lastFullEnd) return { head: [from, to], months: ["9999-99", "0000-00"], tail: ["9", "0"] };
  return {
    head: [from, addDays(firstFull, -1)],
    months: [firstFull.slice(0, 7), lastFullEnd.slice(0, 7)],
    tail: [addDays(lastFullEnd, 1), to],
  };
}

/** Median time to pay (seconds, the middle of its 5%-wide bucket) of the transactions created in days [from, to]; null when none was paid. */
async function medianTimeToPay(
  deps: Pick<Deps, "store">,
  accountId: string,
  livemode: boolean,
  from: string,
  to: string,
  currency?: string,
): Promise<number | null> {
  const buckets = await deps.store.read.stats.payTimeBuckets(accountId, livemode, splitWindow(from, to), currency);
  const total = buckets.reduce((a, b) => a + b.n, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const b of buckets) {
    seen += b.n;
    if (seen * 2 >= total) return Math.round(b.seconds);
  }
  return null;
}
