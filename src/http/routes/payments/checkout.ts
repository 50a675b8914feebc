/**
 * Public (unauthenticated; raw ids are unguessable) endpoints of the payments group:
 * - `GET /v1/boletos/<raw_id>.pdf` the boleto PDF (`boletoPdfUrl`);
 * - `POST {checkout_url_base}/<raw_id>/card` the sandbox card form of the checkout
 *   (body `{number, expiry?, cvc?, name?}`; test cards decide the outcome) -> `{status, transactionStatus}`;
 * - `POST {checkout_url_base}/<raw_id>/pay` the sandbox "simulate payment" of a non-card method
 *   (body `{method}`) -> `{status, transactionStatus}`.
 * Both POSTs exist for sandbox transactions only (a live one answers 404).
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import {
  CHARGE_STATUSES,
  PUBLIC_STATUS,
  TRANSACTION_STATUSES,
  type TransactionStatus,
} from "../../../domain/charges/model";
import { OneOf, View } from "../../../lib/view-schema";
import { BODY_ERRORS, op } from "../../openapi";
import { chargeByRawId } from "../../../domain/charges/public";
import { simulatePayment } from "../../../domain/charges/sandbox";
import { buildBoletoPdf } from "../../../domain/payments/boleto-pdf";
import { payWithSandboxCard } from "../../../domain/payments/card";
import { notFound } from "../../errors";
import { StrictObject, Str } from "../../schemas";
import { checkoutPath } from "../public";

const CardBody = StrictObject({
  number: Str({ minLength: 1, maxLength: 32 }),
  expiry: t.Optional(Str({ maxLength: 7 })),
  cvc: t.Optional(Str({ maxLength: 4 })),
  name: t.Optional(Str({ maxLength: 100 })),
});
const PayBody = StrictObject({
  method: t.Union([
    t.Literal("PIX"),
    t.Literal("MBWAY"),
    t.Literal("MULTIBANCO"),
    t.Literal("BOLETO"),
    t.Literal("CRYPTO"),
  ]),
});
const RAW_ID = /^[0-9a-f]{32}$/;
const tags = ["public"];

/** Answer of the sandbox checkout POSTs: the public status and the transaction status. */
const CheckoutPaymentSchema = View("CheckoutPaymentResult", {
  status: OneOf(CHARGE_STATUSES),
  transactionStatus: OneOf(TRANSACTION_STATUSES),
});

export function paymentCheckoutRoutes(deps: Deps) {
  const base = checkoutPath(deps.config.checkoutUrlBase);
  const sandboxRow = async (rawId: string) => {
    const row = RAW_ID.test(rawId) ? await chargeByRawId(deps, rawId) : undefined;
    if (!row || row.livemode) throw notFound("checkout");
    return row;
  };
  const answer = (status: string) => ({
    status: PUBLIC_STATUS[status as TransactionStatus],
    transactionStatus: status as TransactionStatus,
  });
  return new Elysia()
    .get(
      "/v1/boletos/:file",
      async ({ params }) => {
        const m = /^([0-9a-f]{32})\.pdf$/.exec(params.file);
        const row = m ? await chargeByRawId(deps, m[1]!) : undefined;
        const pdf = row ? await buildBoletoPdf(deps, row) : null;
        if (!pdf) throw notFound("boleto");
        return new Response(Buffer.from(pdf), {
          headers: {
            "content-type": "application/pdf",
            "content-disposition": `inline; filename="boleto-${row!.id}.pdf"`,
            "cache-control": "no-store",
          },
        });
      },
      {
        detail: op({
          tags,
          summary: "Boleto PDF (boletoPdfUrl)",
          security: "none",
          ok: { 200: { content: "application/pdf", description: "The boleto (inline)." } },
          errors: [404],
        }),
      },
    )
    .post(
      `${base}/:raw_id/card`,
      async ({ params, body }) =>
        answer((await payWithSandboxCard(deps, await sandboxRow(params.raw_id), body.number)).status),
      {
        body: CardBody,
        detail: op({
          tags,
          summary: "Sandbox only: the checkout's card form",
          description:
            "Test cards: 4242424242424242 approve; 4000000000000002 decline; 4000000000003220 3DS then approve; 4000000000003063 3DS then decline (PROCESSING for 3 s).",
          security: "none",
          ok: { 200: CheckoutPaymentSchema },
          errors: [...BODY_ERRORS, 404],
          requestExample: { number: "4242424242424242", expiry: "12/30", cvc: "123", name: "Fulano de Tal" },
        }),
      },
    )
    .post(
      `${base}/:raw_id/pay`,
      async ({ params, body }) =>
        answer((await simulatePayment(deps, await sandboxRow(params.raw_id), { method: body.method })).row.status),
      {
        body: PayBody,
        detail: op({
          tags,
          summary: "Sandbox only: simulate the payment of a non-card method from the checkout",
          security: "none",
          ok: { 200: CheckoutPaymentSchema },
          errors: [...BODY_ERRORS, 404],
          requestExample: { method: "PIX" },
        }),
      },
    );
}
