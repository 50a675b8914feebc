/** `POST /v1/payments/{id}/refund` and `GET /v1/payments/{id}/refunds` (interface.md). HTTP only. */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { RefundListSchema, RefundSchema as RefundView, toRefund } from "../../../domain/refunds/views";
import { createRefund } from "../../../domain/refunds/service";
import { listPaymentRefunds } from "../../../domain/payments/service";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { Amount, StrictBool, StrictObject, Str } from "../../schemas";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";

const tags = ["payments"];

export const RefundSchema = StrictObject({
  idempotencyKey: Str({
    minLength: 8,
    maxLength: 128,
    description: "Required: 8-128 characters; a replay returns the original refund.",
  }),
  amount: t.Optional(Amount({ description: "Minor units; default the whole remaining amount." })),
  reason: t.Optional(Str({ maxLength: 500 })),
  strategy: t.Optional(t.Union([t.Literal("devolution"), t.Literal("cashout")], { description: "PIX only." })),
  passFeeToTenant: t.Optional(
    StrictBool({
      description: "PIX cashout only: debit the account's payout fee (`payout_fee_fixed`) from the merchant.",
    }),
  ),
  destinationKey: t.Optional(
    Str({ minLength: 1, maxLength: 140, description: "PIX cashout only: the Pix key to pay." }),
  ),
});

export function refundRoutes(deps: Deps) {
  return new Elysia()
    .use(apiKeyAuth(deps))
    .post(
      "/v1/payments/:id/refund",
      async ({ auth, params, body, set }) => {
        const r = await createRefund(deps, auth, params.id, body);
        set.status = r.status;
        return r.body;
      },
      {
        body: RefundSchema,
        detail: op({
          security: "apikey",
          ok: { 201: RefundView },
          errors: [...BODY_ERRORS, ...AUTH_ERRORS.apikey, 404, 409],
          requestExample: { idempotencyKey: "refund-1234-1", amount: 500, reason: "Customer request" },
          tags,
          summary: "Refund a settled transaction (full or partial)",
          description:
            "201: refund `{id, transactionId, amount, currency, status: PENDING, reason, createdAt}`; it advances PENDING -> IN_PROGRESS -> REFUNDED | FAILED (sandbox: every 2 s). The balance is debited now and restored on FAILED; the transaction becomes REFUNDED (`payment.refunded`) when fully refunded. Errors: 400 `charge_disputed`, `charge_not_refundable`, `refund_amount_exceeds_remaining`, `REFUND_NOT_SUPPORTED` (MBWAY, MULTIBANCO, BOLETO, CRYPTO), `insufficient_balance`; `strategy`/`passFeeToTenant`/`destinationKey` are PIX cashout options (400 elsewhere). `passFeeToTenant` debits the account's payout fee (`payout_fee_fixed`) from the merchant. Through an `efi` connection a live refund without `strategy` is a cashout (a Pix sent to `destinationKey`, else to the payer's CPF/CNPJ: neither -> 400 on `destinationKey`); through a `bcb_pix_v2` connection it is a devolução and cashout is 400 `REFUND_NOT_SUPPORTED`.",
        }),
      },
    )
    .get(
      "/v1/payments/:id/refunds",
      async ({ auth, params }) => {
        return { data: (await listPaymentRefunds(deps, auth, params.id)).map(toRefund) };
      },
      {
        detail: op({
          tags,
          summary: "Refunds of a transaction, newest first",
          description: "200: `{data: [refund]}`.",
          security: "apikey",
          ok: { 200: RefundListSchema },
          errors: [...AUTH_ERRORS.apikey, 404],
        }),
      },
    );
}
