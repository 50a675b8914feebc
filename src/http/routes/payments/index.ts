/** /v1/payments: multi-method transactions, refunds, cancel, resend, receipts, stats. */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "Payments group". */
export function paymentRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
