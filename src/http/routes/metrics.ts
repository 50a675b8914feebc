/**
 * GET /metrics (extensions.md "Operations"): the Prometheus text exposition of src/lib/metrics.ts,
 * mounted only when COFRE_METRICS_TOKEN is set (unset: 404 like any unknown path), and then only
 * for `Authorization: Bearer <token>` (compared in constant time; anything else -> 401
 * `unauthorized`). docs/operations.md lists the metrics.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../domain/deps";
import { safeEqual, sha256Hex } from "../../lib/crypto";
import { ApiError } from "../errors";
import { op } from "../openapi";

export function metricsRoutes(deps: Deps) {
  const token = deps.config.metricsToken;
  if (!token || !deps.metrics.enabled) return new Elysia();
  const expected = sha256Hex(`Bearer ${token}`);
  return new Elysia().get(
    "/metrics",
    async ({ request }) => {
      if (!safeEqual(sha256Hex(request.headers.get("authorization") ?? ""), expected))
        throw new ApiError("unauthorized", "Missing or invalid metrics token.");
      return new Response(await deps.metrics.render(), { headers: { "content-type": deps.metrics.contentType } });
    },
    {
      detail: op({
        tags: ["health"],
        summary: "Prometheus metrics (COFRE_METRICS_TOKEN only; Authorization: Bearer <token>)",
        description:
          "The Prometheus text format: requests by route pattern and status, charge and payout transitions, webhook attempts and lag, job queues and lag, PSP calls, database transactions, process metrics (docs/operations.md). Mounted only when COFRE_METRICS_TOKEN is set (else 404); a missing or wrong bearer token -> 401.",
        security: "none",
        ok: {
          200: {
            content: "text/plain",
            description: "Prometheus text exposition format 0.0.4.",
            schema: { type: "string" },
          },
        },
        errors: [401],
      }),
    },
  );
}
