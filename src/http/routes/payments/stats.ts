/**
 * `GET /v1/payments/stats` and `GET /v1/payments/metrics` (interface.md). Both read the daily
 * aggregates (cost independent of the number of transactions; src/domain/payments/stats.ts).
 */
import { singleQuery } from "../../query";
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { MAX_DAYS, paymentMetrics, paymentStats } from "../../../domain/payments/stats";
import { invalidParam } from "../../errors";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { intParam, onlyKnown } from "./query";
import { PaymentMetricsSchema, PaymentStatsSchema } from "../../../domain/payments/schemas";
import { AUTH_ERRORS, op } from "../../openapi";

const Days = {
  name: "days",
  description: `São Paulo calendar days, today included: 1-${MAX_DAYS}, default 7.`,
  schema: { type: "integer", minimum: 1, maximum: MAX_DAYS },
};

const tags = ["payments"];

export const METRICS_DESCRIPTION = `Conversion funnel of the transactions created in the last \`days\` São Paulo calendar days (default 7, today included, 1-${MAX_DAYS}; no 366 cap), optionally of one \`currency\`. 200:
- \`days\`, \`currency\` (or null), \`from\`, \`to\` (calendar dates), \`timeZone\` ("America/Sao_Paulo");
- funnel steps, each \`{count, volume}\` (volume = sum of amounts, minor units; without \`currency\` volumes add up every currency): \`created\` (all), \`paid\` (paid at some point, later refunds or disputes included), \`failed\` (REFUSED), \`expired\` (EXPIRED), \`cancelled\` (CANCELLED), \`refunded\` (count = fully refunded transactions; volume = every refunded amount, partial refunds included, failed refunds excluded), \`inFlight\` (PENDING, WAITING_PAYMENT, PROCESSING), \`disputed\` (CHARGEBACK, DISPUTE);
- \`conversionRate\`: paid.count / created.count in percent, 2 decimals (0 without transactions);
- \`medianTimeToPaySeconds\`: median of paidAt - createdAt over paid transactions, from a histogram with 5%-wide buckets (null when none paid);
- \`averageTicket\`: paid.volume / paid.count, rounded (null when none paid).
Cost: one primary-key range read of the daily aggregate table (rows = days x currencies x methods x statuses) plus the time-to-pay histogram; independent of the number of transactions.`;

export function statsRoutes(deps: Deps) {
  return new Elysia()
    .use(apiKeyAuth(deps))
    .get(
      "/v1/payments/stats",
      async ({ auth, request }) => {
        const q = singleQuery(request);
        onlyKnown(q, ["days"]);
        const days = intParam(q, "days", 7, 1, MAX_DAYS);
        return paymentStats(deps, auth.accountId, auth.livemode, deps.clock.nowMs(), days);
      },
      {
        detail: op({
          security: "apikey",
          ok: { 200: PaymentStatsSchema },
          errors: [400, ...AUTH_ERRORS.apikey],
          query: [Days],
          tags,
          summary: "Transaction statistics",
          description: `\`days\` default 7 (1-${MAX_DAYS}), São Paulo calendar days, today included; transactions counted on the day they were created. 200: \`totalTransactions\`, \`paidTransactions\` (paid at some point), \`todayTransactions\`, \`successRate\` (integer percent), \`volumeByCurrency[]\` {currency, volume, count} (paid), \`todayVolumeByCurrency\` {currency: amount}, \`dailyVolume[]\` {date, currencies} one point per day, oldest first, at most 366, \`methodBreakdown[]\` {method, volume, count} by the method that paid. Read from daily aggregates maintained with every status change: cost O(days), not O(transactions).`,
        }),
      },
    )
    .get(
      "/v1/payments/metrics",
      async ({ auth, request }) => {
        const q = singleQuery(request);
        onlyKnown(q, ["days", "currency"]);
        const days = intParam(q, "days", 7, 1, MAX_DAYS);
        let currency: string | undefined;
        if (q.currency !== undefined) {
          if (!/^[A-Za-z0-9]{3,8}$/.test(q.currency))
            throw invalidParam("currency", "currency must be 3-8 letters or digits.", "invalid_currency");
          currency = q.currency.toUpperCase();
        }
        return paymentMetrics(deps, auth.accountId, auth.livemode, deps.clock.nowMs(), days, currency);
      },
      {
        detail: op({
          tags,
          summary: "Conversion funnel and volume metrics",
          description: METRICS_DESCRIPTION,
          security: "apikey",
          ok: { 200: PaymentMetricsSchema },
          errors: [400, ...AUTH_ERRORS.apikey],
          query: [
            Days,
            { name: "currency", description: "3-8 letters or digits (case-insensitive); default all currencies." },
          ],
        }),
      },
    );
}
