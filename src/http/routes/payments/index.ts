/**
 * /v1/payments: multi-method transactions, refunds, cancel, resend, receipts, stats; plus their public files and
 * sandbox checkout endpoints.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { paymentCheckoutRoutes } from "./checkout";
import { refundRoutes } from "./refunds";
import { statsRoutes } from "./stats";
import { transactionRoutes } from "./transactions";

export function paymentRoutes(deps: Deps) {
  return new Elysia()
    .use(paymentCheckoutRoutes(deps))
    .use(statsRoutes(deps))
    .use(refundRoutes(deps))
    .use(transactionRoutes(deps));
}
