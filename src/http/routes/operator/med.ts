/**
 * Operator MED ruling (extensions.md "Operator API"): `POST /v1/operator/med/cases/{id}/resolve`
 * body `{outcome}` for any account and mode (live too); this is how cases under operations
 * review (e.g. amount mismatch) end. Not mounted when COFRE_OPERATOR_TOKEN is unset (404).
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";
import { operatorAuth } from "../../plugins/operator-auth";
import { resolveCase } from "../../../domain/med/service";
import { MedCaseSchema, toPublicCase } from "../../../domain/med/views";
import { RulingBody } from "../test-helpers/med";
import { BODY_ERRORS, op } from "../../openapi";

export function operatorMedRoutes(deps: Deps) {
  if (!deps.config.operatorToken) return new Elysia();
  return new Elysia()
    .use(operatorAuth(deps))
    .post("/v1/operator/med/cases/:id/resolve", ({ params, body }) => toPublicCase(resolveCase(deps, null, params.id, body.outcome)), {
      body: RulingBody,
      detail: op({
        tags: ["operator"],
        security: "operator",
        summary: "Rule on a MED case (operations review)",
        ok: { 200: MedCaseSchema },
        errors: [...BODY_ERRORS, 401, 404],
        requestExample: { outcome: "merchant_favor" },
      }),
    });
}
