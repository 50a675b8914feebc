/**
 * Sandbox test helpers for MED (extensions.md, test keys only): the payer's bank opens a MED on
 * a paid charge, a ruling reaches the platform, the platform asks for evidence.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { Type, StrictObject, Amount } from "../../schemas";
import { testModeOnly } from "./test-mode";
import { requestEvidence, resolveCase } from "../../../domain/med/service";
import { openMedCase } from "../../../domain/med/open";
import { MED_CASE_TYPES, RULINGS } from "../../../domain/med/model";
import { MedCaseSchema, toPublicCase } from "../../../domain/med/views";
import { stripPrefix } from "../../../lib/ids";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";

/** Body of the MED opening helper (and of the operator's, operator/med.ts): every field optional. */
export const OpenBody = StrictObject({
  type: Type.Optional(Type.Union(MED_CASE_TYPES.map((x) => Type.Literal(x)))),
  amount: Type.Optional(Amount()),
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  response_deadline: Type.Optional(Type.String({ description: "ISO 8601, in the future" })),
});

/** `{outcome}` of a ruling: upheld | merchant_favor | withdrawn | closed_without_refund. */
export const RulingBody = StrictObject({ outcome: Type.Union(RULINGS.map((r) => Type.Literal(r))) });

export function medTestHelperRoutes(deps: Deps) {
  const doc = (summary: string, status: number, requestExample?: unknown) =>
    op({
      tags: ["test_helpers"],
      summary,
      security: "apikey",
      ok: { [status]: MedCaseSchema },
      errors: [...BODY_ERRORS, ...AUTH_ERRORS.apikey, 403, 404],
      ...(requestExample !== undefined ? { requestExample } : {}),
    });
  return new Elysia()
    .use(testModeOnly(deps))
    .post(
      "/v1/test_helpers/charges/:id/med",
      async ({ auth, params, body, set }) => {
        const row = await openMedCase(deps, auth, stripPrefix(params.id, "ch_"), body ?? {});
        set.status = 201;
        return toPublicCase(row);
      },
      {
        body: Type.Optional(OpenBody),
        detail: doc("Open a MED on a paid charge (sandbox)", 201, { type: "med", reason: "scam" }),
      },
    )
    .post(
      "/v1/test_helpers/med/cases/:id/resolve",
      async ({ auth, params, body }) => {
        return toPublicCase(await resolveCase(deps, auth, params.id, body.outcome));
      },
      {
        body: RulingBody,
        detail: doc("A MED ruling reaches the platform (sandbox)", 200, { outcome: "merchant_favor" }),
      },
    )
    .post(
      "/v1/test_helpers/med/cases/:id/request_evidence",
      async ({ auth, params }) => {
        return toPublicCase(await requestEvidence(deps, auth, params.id));
      },
      { detail: doc("The platform asks for evidence (sandbox)", 200) },
    );
}
