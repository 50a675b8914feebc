/**
 * Reconciliation with the PSP (extensions.md "Statement, exports and reconciliation"):
 * `GET /v1/reconciliation?date=YYYY-MM-DD` compares that São Paulo day now (and stores it);
 * without `date`, the stored days of the last 30. Live key or dashboard session in live mode.
 * HTTP only: schemas, statuses.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { listReconciliations, reconcileDay } from "../../../domain/reconciliation/service";
import { ReconciliationListSchema, ReconciliationSchema } from "../../../domain/reconciliation/views";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { singleQuery } from "../../query";
import { invalidParam } from "../../errors";
import { Type } from "../../schemas";
import { AUTH_ERRORS, op } from "../../openapi";

export function reconciliationRoutes(deps: Deps) {
  return new Elysia().use(apiKeyAuth(deps)).get(
    "/v1/reconciliation",
    async ({ auth, request }) => {
      const q = singleQuery(request);
      const unknown = Object.keys(q).find((k) => k !== "date");
      if (unknown !== undefined) throw invalidParam(unknown, `Unknown query parameter ${unknown}.`);
      const date = q.date;
      return date === undefined ? listReconciliations(deps, auth) : reconcileDay(deps, auth, date);
    },
    {
      detail: op({
        tags: ["reconciliation"],
        security: "apikey",
        summary: "Reconcile a São Paulo day with the PSP, or list the last 30 days",
        description:
          "With `date` (YYYY-MM-DD, São Paulo): lists that day at the PSP (`GET /pix?inicio&fim` received, and through an `efi` connection `GET /v2/gn/pix/enviados` sent), compares it with Cofre's charges, returned Pix, payouts and cashout refunds on end-to-end id / idEnvio, stores and answers the Reconciliation; a Pix received on one of our cobs that Cofre missed is queued for confirmation (`healed: true`). Without `date`: `{object: list, data}` of the stored days of the last 30, newest first (a job reconciles the previous day every morning). Live only: a test key -> 403 `live_mode_only`. No connection -> 422; the PSP down -> 503.",
        ok: { 200: Type.Union([ReconciliationSchema, ReconciliationListSchema]) },
        errors: [400, ...AUTH_ERRORS.apikey, 403, 422, 503],
        query: [
          {
            name: "date",
            description: "São Paulo calendar day, YYYY-MM-DD (not in the future). Omit it to list the stored days.",
            schema: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
          },
        ],
      }),
    },
  );
}
