import { expect, test } from "bun:test";
import { createHarness } from "../support/harness";

test("the OpenAPI document lists every payments route and documents the metrics fields", async () => {
  const h = createHarness();
  const r = await h.call("GET", "/docs/json");
  expect(r.status).toBe(200);
  const paths = r.body.paths as Record<string, Record<string, { description?: string }>>;
  for (const p of [
    "/v1/payments",
    "/v1/payments/{id}",
    "/v1/payments/stats",
    "/v1/payments/metrics",
    "/v1/payments/{id}/cancel",
    "/v1/payments/{id}/refund",
    "/v1/payments/{id}/refunds",
    "/v1/payments/{id}/resend-webhook",
    "/v1/payments/{id}/receipt",
    "/v1/boletos/{file}",
    "/v1/test_helpers/refunds/{id}/advance",
  ])
    expect(Object.keys(paths)).toContain(p);
  const metrics = paths["/v1/payments/metrics"]!.get!.description!;
  for (const f of [
    "created",
    "paid",
    "failed",
    "expired",
    "cancelled",
    "refunded",
    "inFlight",
    "disputed",
    "conversionRate",
    "medianTimeToPaySeconds",
    "averageTicket",
    "Cost",
  ])
    expect(metrics).toContain(f);
});
