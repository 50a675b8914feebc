/**
 * `POST /v1/test_helpers/payouts/{id}/pay` and `/fail` body `{failure_code?}` (extensions.md
 * "Payouts (money out)"): the sandbox PSP pays (a 32-character end-to-end id) or refuses a payout
 * not final yet -> 200 the Payout. Live key -> 403 `test_mode_only`; another account's -> 404; a
 * final payout -> 400 `invalid_state`.
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { settleSandboxPayout } from "../../../domain/payouts/service";
import { PayoutSchema } from "../../../domain/payouts/views";
import { newEndToEndId } from "../../../pix/ids";
import { testModeOnly } from "./test-mode";
import { Str, StrictObject, Type } from "../../schemas";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";

const IdParams = t.Object({ id: Str({ minLength: 1, maxLength: 100 }) });
const FailBody = StrictObject({
  failure_code: Type.Optional(Str({ minLength: 1, maxLength: 64, description: "Default `sandbox_failed`." })),
});
const doc = (summary: string, example?: object) =>
  op({
    tags: ["test_helpers"],
    summary,
    security: "apikey",
    ok: { 200: PayoutSchema },
    errors: [...BODY_ERRORS, ...AUTH_ERRORS.apikey, 403, 404],
    ...(example ? { requestExample: example } : {}),
  });

export function payoutTestHelperRoutes(deps: Deps) {
  return new Elysia()
    .use(testModeOnly(deps))
    .post(
      "/v1/test_helpers/payouts/:id/pay",
      ({ auth, params }) =>
        settleSandboxPayout(deps, auth, params.id, { paid: true, endToEndId: newEndToEndId(deps.clock.now()) }),
      {
        params: IdParams,
        body: StrictObject({}),
        detail: doc("Pay a sandbox payout now (pending or processing -> paid)"),
      },
    )
    .post(
      "/v1/test_helpers/payouts/:id/fail",
      ({ auth, params, body }) =>
        settleSandboxPayout(deps, auth, params.id, { paid: false, failureCode: body.failure_code }),
      {
        params: IdParams,
        body: FailBody,
        detail: doc("Fail a sandbox payout (amount + fee back to available)", { failure_code: "account_closed" }),
      },
    );
}
