/**
 * Operator MED routes (extensions.md "Operator API" and "Live Pix"): `POST /v1/operator/med/cases/{id}/resolve`
 * body `{outcome}` for any account and mode (live too; how cases under operations review, e.g.
 * amount mismatch, end), and `POST /v1/operator/charges/{id}/med` with the sandbox helper's body:
 * opens a MED on a live paid charge (the BCB API Pix has no MED endpoint for the merchant's PSP
 * to call us with), and `POST /v1/operator/med/cases/{id}/submit-defense` (forwards the merchant's
 * appeal of a case opened from an `efi` infraction to the PSP). Not mounted when
 * COFRE_OPERATOR_TOKEN is unset (404).
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { operatorAuth } from "../../plugins/operator-auth";
import { resolveCase } from "../../../domain/med/service";
import { MedCaseSchema, toPublicCase } from "../../../domain/med/views";
import { openLiveMedCase } from "../../../domain/med/open";
import { submitDefense } from "../../../domain/reconciliation/infractions";
import { OpenBody, RulingBody } from "../test-helpers/med";
import { StrictObject, Type } from "../../schemas";
import { BODY_ERRORS, op } from "../../openapi";

export function operatorMedRoutes(deps: Deps) {
  if (!deps.config.operatorToken) return new Elysia();
  return new Elysia()
    .use(operatorAuth(deps))
    .post(
      "/v1/operator/med/cases/:id/resolve",
      async ({ params, body }) => toPublicCase(await resolveCase(deps, null, params.id, body.outcome)),
      {
        body: RulingBody,
        detail: op({
          tags: ["operator"],
          security: "operator",
          summary: "Rule on a MED case (operations review)",
          ok: { 200: MedCaseSchema },
          errors: [...BODY_ERRORS, 401, 404],
          requestExample: { outcome: "merchant_favor" },
        }),
      },
    )
    .post(
      "/v1/operator/med/cases/:id/submit-defense",
      async ({ params }) => toPublicCase(await submitDefense(deps, params.id)),
      {
        body: StrictObject({}),
        detail: op({
          tags: ["operator"],
          security: "operator",
          summary: "Forward the merchant's appeal of a live MED case to the PSP",
          description:
            'For a case opened from an `efi` infraction (extensions.md "Live MED from the PSP"): sends `POST /v2/gn/infracoes/{idInfracao}/defesa` `{analise: "rejeitado", justificativa: appeal_reason}` and answers the case. 400 `invalid_state`: the case did not come from a PSP infraction, is not `appealed`, or its defence was already forwarded; 422 the PSP refused it; 503 the PSP did not answer.',
          ok: { 200: MedCaseSchema },
          errors: [...BODY_ERRORS, 401, 404, 422, 503],
        }),
      },
    )
    .post(
      "/v1/operator/charges/:id/med",
      async ({ params, body, set }) => {
        const row = await openLiveMedCase(deps, params.id, body ?? {});
        set.status = 201;
        return toPublicCase(row);
      },
      {
        body: Type.Optional(OpenBody),
        detail: op({
          tags: ["operator"],
          security: "operator",
          summary: "Open a MED on a live paid charge",
          description:
            "The payer's bank opened a MED (or a dispute) on a live paid charge: the case opens as the sandbox helper's does (amount held, charge `disputed`, `med_case.created`). A test-mode charge -> 403 `live_mode_only`; a charge that is not paid or already has an open case -> 400 `invalid_state`.",
          ok: { 201: MedCaseSchema },
          errors: [...BODY_ERRORS, 401, 403, 404],
          requestExample: { type: "med", reason: "scam" },
        }),
      },
    );
}
