/**
 * Response schemas of the payments group's computed answers (stats, metrics, receipt, resend);
 * the Transaction and Refund objects sit beside their serializers (views.ts, src/domain/refunds/views.ts).
 * Each is tied at compile time to the type its function returns.
 */
import { Closed, Currency, Money, Nullable, Type, View, type Static } from "../../lib/view-schema";
import type { PaymentMetrics, PaymentStats } from "./stats";

const Count = () => Type.Integer({ minimum: 0 });
const ByCurrency = (description: string) =>
  Type.Record(Type.String(), Type.Integer(), { description, examples: [{ BRL: 150000 }] });

/** GET /v1/payments/stats (interface.md "Payments group"). */
export const PaymentStatsSchema = View("PaymentStats", {
  totalTransactions: Count(),
  paidTransactions: Count(),
  todayTransactions: Count(),
  successRate: Type.Integer({ minimum: 0, maximum: 100, description: "Percent." }),
  volumeByCurrency: Type.Array(Closed({ currency: Currency(), volume: Money(), count: Count() })),
  todayVolumeByCurrency: ByCurrency("Currency -> paid amount today (minor units)."),
  dailyVolume: Type.Array(
    Closed({ date: Type.String({ format: "date" }), currencies: ByCurrency("Currency -> paid amount (minor units).") }),
    { maxItems: 366 },
  ),
  methodBreakdown: Type.Array(Closed({ method: Type.String(), volume: Money(), count: Count() })),
});

const Step = () => Closed({ count: Count(), volume: Money({ description: "Sum of amounts (minor units)." }) });

/** GET /v1/payments/metrics. */
export const PaymentMetricsSchema = View("PaymentMetrics", {
  days: Type.Integer({ minimum: 1 }),
  currency: Nullable(Currency()),
  from: Type.String({ format: "date" }),
  to: Type.String({ format: "date" }),
  timeZone: Type.Literal("America/Sao_Paulo"),
  created: Step(),
  paid: Step(),
  failed: Step(),
  expired: Step(),
  cancelled: Step(),
  refunded: Step(),
  inFlight: Step(),
  disputed: Step(),
  conversionRate: Type.Number({ minimum: 0, maximum: 100, description: "Percent, 2 decimals." }),
  medianTimeToPaySeconds: Nullable(Type.Number({ minimum: 0, description: "Seconds." })),
  averageTicket: Nullable(Type.Integer({ description: "Minor units." })),
});

/** GET /v1/payments/{id}/receipt (JSON form). */
export const ReceiptSchema = View("Receipt", {
  contentType: Type.Literal("application/pdf"),
  base64: Type.String({ contentEncoding: "base64" }),
});

/** POST /v1/payments/{id}/resend-webhook. */
export const ResendSchema = View("WebhookResent", { resent: Type.Boolean(), status: Type.String() });

// Compile-time ties, both directions.
const _s1: PaymentStats = {} as Static<typeof PaymentStatsSchema>;
const _s2: Static<typeof PaymentStatsSchema> = {} as PaymentStats;
const _m1: PaymentMetrics = {} as Static<typeof PaymentMetricsSchema>;
const _m2: Static<typeof PaymentMetricsSchema> = {} as PaymentMetrics;
void [_s1, _s2, _m1, _m2];
