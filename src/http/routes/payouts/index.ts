/**
 * Payouts (extensions.md "Payouts (money out)"): POST /v1/payouts (Idempotency-Key required),
 * GET /v1/payouts/{id}, GET /v1/payouts (cursor list), POST /v1/payouts/{id}/cancel; and the
 * destinations (./destinations.ts). HTTP only: schemas, statuses, headers.
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import {
  cancelPayout,
  createPayout,
  getPayout,
  PAYOUT_SCOPE,
  type PayoutRequest,
} from "../../../domain/payouts/service";
import { listPayouts } from "../../../domain/payouts/list";
import { PAYOUT_STATUSES } from "../../../domain/payouts/model";
import { PayoutListSchema, PayoutSchema } from "../../../domain/payouts/views";
import { idempotent } from "../../idempotent";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { singleQuery } from "../../query";
import { Amount, Metadata, Str, StrictObject, Type } from "../../schemas";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";
import { payoutDestinationRoutes } from "./destinations";

const tags = ["payouts"];
const IdParams = t.Object({ id: Str({ minLength: 1, maxLength: 100 }) });

const PayoutBody = StrictObject({
  amount: Amount({ minimum: 1, description: "Centavos (integer >= 1)." }),
  destination_id: Str({
    minLength: 1,
    maxLength: 100,
    description: "A pd_ id of a destination registered in the dashboard.",
  }),
  description: Type.Optional(Str({ maxLength: 140, description: "Shown to the payee (at most 140 characters)." })),
  metadata: Type.Optional(Metadata()),
});

export function payoutRoutes(deps: Deps) {
  const payouts = new Elysia()
    .use(apiKeyAuth(deps))
    .post(
      "/v1/payouts",
      ({ request, set, auth, body }) =>
        idempotent(deps, { request, set, auth, body }, PAYOUT_SCOPE, (claim) =>
          createPayout(deps, auth, body as PayoutRequest, claim),
        ),
      {
        body: PayoutBody,
        detail: op({
          tags,
          security: "apikey",
          idempotencyKey: true,
          summary: "Pay out to a registered destination (Idempotency-Key required)",
          description:
            "201 the Payout, `pending`: `amount + fee` (the account's payout_fee_fixed) left the available balance of the key's mode in the same transaction. It is sent after the account's payout_delay_seconds (default 0), goes `processing`, then `paid` or `failed` (failed and cancelled payouts give the money back). Sends `payout.created` and `withdrawal.created`. Errors: 400 `insufficient_balance` (nothing written), 400 `payout_limit_exceeded` (the account's daily limit, São Paulo day), 404 a destination that is not the account's, 422 `unprocessable_entity` a live payout without a Pix provider connection that can send Pix, 409 idempotency conflicts.",
          ok: { 201: PayoutSchema },
          errors: [...BODY_ERRORS, ...AUTH_ERRORS.apikey, 403, 404, 409, 422],
          requestExample: {
            amount: 15000,
            destination_id: "pd_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a",
            description: "Saque semanal",
            metadata: { reference: "2026-47" },
          },
        }),
      },
    )
    .get("/v1/payouts", ({ auth, request }) => listPayouts(deps, auth, singleQuery(request)), {
      detail: op({
        tags,
        security: "apikey",
        summary: "List payouts (cursor: starting_after; page/offset are rejected)",
        description:
          "Newest first, `{object: list, data, has_more, next_cursor}`. Unknown parameters or bad values -> 400.",
        ok: { 200: PayoutListSchema },
        errors: [400, ...AUTH_ERRORS.apikey],
        query: [
          { name: "limit", description: "1-100, default 25.", schema: { type: "integer", minimum: 1, maximum: 100 } },
          { name: "starting_after", description: "A po_ id of your payouts: the page after it (`next_cursor`)." },
          { name: "status", description: "Payout status.", schema: { type: "string", enum: [...PAYOUT_STATUSES] } },
          { name: "created_after", description: "ISO 8601." },
          { name: "created_before", description: "ISO 8601." },
        ],
      }),
    })
    .get("/v1/payouts/:id", ({ auth, params }) => getPayout(deps, auth, params.id), {
      params: IdParams,
      detail: op({
        tags,
        security: "apikey",
        summary: "Retrieve a payout",
        ok: { 200: PayoutSchema },
        errors: [...AUTH_ERRORS.apikey, 404],
      }),
    })
    .post("/v1/payouts/:id/cancel", ({ auth, params }) => cancelPayout(deps, auth, params.id), {
      params: IdParams,
      body: StrictObject({}),
      detail: op({
        tags,
        security: "apikey",
        summary: "Cancel a pending payout (amount + fee back to available)",
        description:
          "200 the Payout `cancelled`; sends `payout.failed` and `withdrawal.failed`. Only while `pending` (before it is sent), else 400 `invalid_state`.",
        ok: { 200: PayoutSchema },
        errors: [...BODY_ERRORS, ...AUTH_ERRORS.apikey, 403, 404],
      }),
    });
  return new Elysia().use(payoutDestinationRoutes(deps)).use(payouts);
}
