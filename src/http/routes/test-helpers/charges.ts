/**
 * Sandbox test helpers for charges (extensions.md): `POST /v1/test_helpers/charges/{id}/pay` and
 * `POST /v1/test_helpers/provider_faults`. Test keys only (live -> 403 `test_mode_only`).
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { setProviderFaults } from "../../../domain/charges/faults";
import { simulatePayment } from "../../../domain/charges/sandbox";
import { getPayment } from "../../../domain/payments/service";
import { ChargeSchema, toPublicCharge } from "../../../domain/charges/views";
import { testModeOnly } from "./test-mode";
import { Amount, StrictBool, Str, StrictInt, StrictObject, Type } from "../../schemas";
import { View } from "../../../lib/view-schema";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";

const tags = ["test_helpers"];
/** Every helper: a JSON body, the apikey, 403 `test_mode_only` for a live key. */
const HELPER_ERRORS = [...BODY_ERRORS, ...AUTH_ERRORS.apikey, 403];
const FaultsSchema = View("ProviderFaults", {
  mode: Type.Union([Type.Literal("reject"), Type.Literal("unavailable")]),
  remaining: Type.Integer({ minimum: 0 }),
});

export function chargeTestHelperRoutes(deps: Deps) {
  return new Elysia()
    .use(testModeOnly(deps))
    .post(
      "/v1/test_helpers/charges/:id/pay",
      async ({ auth, params, body }) => {
        // Any transaction of the caller (PIX or not): `method` may be any method it offers (extensions.md).
        const row = await getPayment(deps, auth, params.id);
        const result = await simulatePayment(deps, row, body ?? {});
        return toPublicCharge(result.row, deps.config);
      },
      {
        body: Type.Optional(
          StrictObject({
            amount: Type.Optional(
              Amount({
                description:
                  "Minor units the payer sends (default: the charge amount; another amount is returned by the bank).",
              }),
            ),
            method: Type.Optional(Str({ maxLength: 32 })),
            outcome: Type.Optional(Type.Union([Type.Literal("succeed"), Type.Literal("decline")])),
            payer_tax_id: Type.Optional(Str({ maxLength: 32 })),
            payer_name: Type.Optional(Str({ maxLength: 200 })),
            disclose_payer: Type.Optional(StrictBool()),
          }),
        ),
        detail: op({
          tags,
          summary: "The payer pays a pending sandbox charge",
          description:
            "Any transaction of the caller (`ch_` or raw id); `method` may be any method it offers. 200: the Charge after the payment. A charge that is not pending -> 400 `invalid_state`.",
          security: "apikey",
          ok: { 200: ChargeSchema },
          errors: [...HELPER_ERRORS, 404],
          requestExample: { outcome: "succeed" },
        }),
      },
    )
    .post(
      "/v1/test_helpers/provider_faults",
      ({ auth, body }) => setProviderFaults(deps, auth.accountId, body.mode, body.count),
      {
        body: StrictObject({
          mode: Type.Union([Type.Literal("reject"), Type.Literal("unavailable")]),
          count: StrictInt({ minimum: 1, maximum: 100 }),
        }),
        detail: op({
          tags,
          summary: "Make the next sandbox charge creations meet a failing provider",
          security: "apikey",
          ok: { 200: FaultsSchema },
          errors: HELPER_ERRORS,
          requestExample: { mode: "unavailable", count: 1 },
        }),
      },
    );
}
