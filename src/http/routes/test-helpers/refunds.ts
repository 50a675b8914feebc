/**
 * `POST /v1/test_helpers/refunds/{id}/advance` body `{to: "IN_PROGRESS" | "REFUNDED" | "FAILED"}`
 * (extensions.md): moves a sandbox refund through `applyRefundStatus` -> 200 the refund.
 * Live key -> 403 `test_mode_only`; unknown or other account's refund -> 404; a move the refund
 * status table forbids (e.g. from a final status) -> 400 `invalid_state`.
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { advanceSandboxRefund } from "../../../domain/refunds/service";
import { testModeOnly } from "./test-mode";
import { StrictObject } from "../../schemas";
import { RefundSchema } from "../../../domain/refunds/views";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";

const AdvanceBody = StrictObject({
  to: t.Union([t.Literal("IN_PROGRESS"), t.Literal("REFUNDED"), t.Literal("FAILED")]),
});

export function refundTestHelperRoutes(deps: Deps) {
  return new Elysia()
    .use(testModeOnly(deps))
    .post(
      "/v1/test_helpers/refunds/:id/advance",
      async ({ auth, params, body }) => advanceSandboxRefund(deps, auth, params.id, body.to),
      {
        body: AdvanceBody,
        detail: op({
          tags: ["test_helpers"],
          summary: "Advance a sandbox refund (PENDING -> IN_PROGRESS -> REFUNDED | FAILED)",
          security: "apikey",
          ok: { 200: RefundSchema },
          errors: [...BODY_ERRORS, ...AUTH_ERRORS.apikey, 403, 404],
          requestExample: { to: "REFUNDED" },
        }),
      },
    );
}
