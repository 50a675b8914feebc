/**
 * `/v1/payments` transaction routes (interface.md "Payments group"): create, list, get, cancel,
 * resend-webhook, receipt. HTTP only: bodies and queries are validated here, rules live in
 * src/domain/payments. Every response is an allowlist view (src/domain/payments/views.ts).
 */
import { singleQuery } from "../../query";
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { PAYMENT_METHODS, TRANSACTION_STATUSES } from "../../../domain/charges/model";
import { createPayment } from "../../../domain/payments/create";
import { isSortField, listPayments, SORTABLE } from "../../../domain/payments/list";
import { buildReceipt, receiptPdf } from "../../../domain/payments/receipt";
import { PayerSchema, payerOf } from "../../../domain/payments/payer";
import { cancelPayment, getPayment, resendWebhook } from "../../../domain/payments/service";
import {
  TransactionCreateSchema,
  TransactionListSchema,
  TransactionSchema,
  toTransaction,
} from "../../../domain/payments/views";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { Amount, Metadata, StrictObject, Str } from "../../schemas";
import { invalidParam } from "../../errors";
import { acceptsExplicitly } from "../../accept";
import { dateParam, enumParam, intParam, onlyKnown } from "./query";
import { ReceiptSchema, ResendSchema } from "../../../domain/payments/schemas";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";
import { pdfResponse } from "../../pdf";

const tags = ["payments"];
const METHOD_NAMES = ["PIX", "CREDIT_CARD", "MBWAY", "MULTIBANCO", "BOLETO", "CRYPTO"];
const A = AUTH_ERRORS.apikey;

/** `search` of GET /v1/payments: 1-64 characters after trimming, else 400. */
function searchParam(raw: unknown): string {
  const s = typeof raw === "string" ? raw.trim() : "";
  if (s.length < 1 || s.length > 64)
    throw invalidParam(
      "search",
      "search must be 1-64 characters: an id, a Pix txid, an end-to-end id or a customer document.",
    );
  return s;
}

export const CreatePaymentSchema = StrictObject({
  amount: Amount({ description: "Minor units of `currency` (centavos for BRL), integer 1 to 10^12." }),
  currency: t.Optional(
    Str({ minLength: 3, maxLength: 8, description: "Default BRL; e.g. EUR (MBWAY, MULTIBANCO), USDT (CRYPTO)." }),
  ),
  paymentMethods: t.Array(Str({ maxLength: 32 }), { minItems: 1, maxItems: 6, description: METHOD_NAMES.join(" | ") }),
  customerId: t.Optional(Str({ maxLength: 200 })),
  customerName: t.Optional(Str({ maxLength: 200 })),
  customerDocument: t.Optional(Str({ maxLength: 64 })),
  customerEmail: t.Optional(Str({ maxLength: 254 })),
  metadata: t.Optional(Metadata()),
  webhookUrl: t.Optional(Str({ maxLength: 2048 })),
  idempotencyKey: Str({
    minLength: 8,
    maxLength: 128,
    description: "Required: 8-128 characters; a replay returns the original response.",
  }),
});

export function transactionRoutes(deps: Deps) {
  const view = (row: Parameters<typeof toTransaction>[0]) => toTransaction(row, deps.config);
  return new Elysia()
    .use(apiKeyAuth(deps))
    .post(
      "/v1/payments",
      async ({ auth, body, set }) => {
        const r = await createPayment(deps, auth, body);
        set.status = r.status;
        return r.body;
      },
      {
        body: CreatePaymentSchema,
        detail: op({
          tags,
          summary: "Create a multi-method transaction",
          description:
            "201: the create shape (`id`, `status` WAITING_PAYMENT, `amount`, `currency`, `paymentMethods`, `customerName`, `customerDocument`, `customerEmail`, `metadata`, `createdAt`). `idempotencyKey` (body, 8-128 chars) is required; a replay returns the original response. Method fields appear on GET once finalised. A live key without a provider for a method gets 422 `unprocessable_entity`.",
          security: "apikey",
          ok: { 201: TransactionCreateSchema },
          errors: [...BODY_ERRORS, ...A, 403, 409, 422, 503],
          requestExample: {
            amount: 1500,
            currency: "BRL",
            paymentMethods: ["PIX", "CREDIT_CARD"],
            customerName: "Fulano de Tal",
            metadata: { order_id: "1234" },
            idempotencyKey: "order-1234-payment",
          },
        }),
      },
    )
    .get(
      "/v1/payments",
      async ({ auth, request }) => {
        const q = singleQuery(request);
        onlyKnown(q, [
          "page",
          "limit",
          "status",
          "startDate",
          "endDate",
          "sortBy",
          "sortOrder",
          "search",
          "paymentMethod",
        ]);
        const page = intParam(q, "page", 1, 1, 1_000_000);
        const limit = intParam(q, "limit", 20, 1, 100);
        const status = enumParam(q, "status", TRANSACTION_STATUSES);
        const paymentMethod = enumParam(q, "paymentMethod", PAYMENT_METHODS);
        const startMs = dateParam(q, "startDate", "start");
        const endMs = dateParam(q, "endDate", "end");
        const sortBy = q.sortBy ?? "createdAt";
        if (!isSortField(sortBy))
          throw invalidParam(
            "sortBy",
            `sortBy must be a top-level field of the transaction: ${Object.keys(SORTABLE).join(", ")}.`,
          );
        const sortOrder = enumParam(q, "sortOrder", ["asc", "desc"] as const) ?? "desc";
        const { rows, total } = await listPayments(deps, {
          accountId: auth.accountId,
          livemode: auth.livemode,
          page,
          limit,
          ...(status ? { status } : {}),
          ...(paymentMethod ? { paymentMethod } : {}),
          ...(startMs !== undefined ? { startMs } : {}),
          ...(endMs !== undefined ? { endMs } : {}),
          ...(q.search !== undefined ? { search: searchParam(q.search) } : {}),
          sortBy,
          sortOrder,
        });
        return { data: await Promise.all(rows.map(view)), total, page, limit };
      },
      {
        detail: op({
          tags,
          summary: "List transactions",
          description:
            "Query: `page` (default 1), `limit` (default 20, 1-100), `status` (transaction status), `startDate`/`endDate` (ISO 8601, inclusive bounds on `createdAt`; a bare date covers the whole UTC day), `sortBy` (a top-level field, default `createdAt`; nested or unknown fields -> 400), `sortOrder` (`asc`|`desc`, default `desc`), `search` (exact id, `ch_` id, Pix txid, end-to-end id, or customer CPF/CNPJ; 1-64 characters), `paymentMethod` (paid with that method, or not paid yet and offering it). Unknown parameters -> 400. 200: `{data, total, page, limit}`.",
          security: "apikey",
          ok: { 200: TransactionListSchema },
          errors: [400, ...A],
          query: [
            { name: "page", description: "Default 1.", schema: { type: "integer", minimum: 1 } },
            { name: "limit", description: "1-100, default 20.", schema: { type: "integer", minimum: 1, maximum: 100 } },
            {
              name: "status",
              description: "Transaction status.",
              schema: { type: "string", enum: [...TRANSACTION_STATUSES] },
            },
            { name: "startDate", description: "ISO 8601 date or date-time (inclusive)." },
            { name: "endDate", description: "ISO 8601 date or date-time (inclusive; a bare date covers the day)." },
            { name: "sortBy", description: `One of ${Object.keys(SORTABLE).join(", ")}; default createdAt.` },
            {
              name: "sortOrder",
              description: "asc or desc (default).",
              schema: { type: "string", enum: ["asc", "desc"] },
            },
            {
              name: "search",
              description:
                "Exact id (raw or ch_), Pix txid, end-to-end id, or customer CPF/CNPJ (punctuation ignored).",
              schema: { type: "string", minLength: 1, maxLength: 64 },
            },
            {
              name: "paymentMethod",
              description: "Paid with this method, or not paid yet and offering it.",
              schema: { type: "string", enum: [...PAYMENT_METHODS] },
            },
          ],
        }),
      },
    )
    .get("/v1/payments/:id", async ({ auth, params }) => view(await getPayment(deps, auth, params.id)), {
      detail: op({
        tags,
        summary: "Retrieve a transaction (get shape; method fields null when not applicable)",
        security: "apikey",
        ok: { 200: TransactionSchema },
        errors: [...A, 404],
      }),
    })
    .post("/v1/payments/:id/cancel", async ({ auth, params }) => view(await cancelPayment(deps, auth, params.id)), {
      detail: op({
        tags,
        summary: "Cancel a transaction",
        description:
          "Only WAITING_PAYMENT, PENDING or PROCESSING -> CANCELLED (`charge.failed`, `payment.failed`); otherwise 400 `charge_not_cancellable` (paid ones must be refunded; a Pix already received and held for review by the payer lock is not in flight and cannot be cancelled). The provider is asked first: one that refuses gives 400 `charge_not_cancellable`, one that cannot be reached 503 `service_unavailable` (nothing changed; safe to retry).",
        security: "apikey",
        ok: { 200: TransactionSchema },
        errors: [...BODY_ERRORS, ...A, 404, 503],
      }),
    })
    .post("/v1/payments/:id/resend-webhook", async ({ auth, params }) => resendWebhook(deps, auth, params.id), {
      detail: op({
        tags,
        summary: "Re-emit the current status as a fresh delivery",
        description: "200: `{resent: boolean, status: string}`.",
        security: "apikey",
        ok: { 200: ResendSchema },
        errors: [...BODY_ERRORS, ...A, 404],
      }),
    })
    .get(
      "/v1/payments/:id/receipt",
      async ({ auth, params, headers }) => {
        const row = await getPayment(deps, auth, params.id);
        if (!acceptsExplicitly(headers.accept, "application/pdf")) return buildReceipt(deps, row);
        return pdfResponse(await receiptPdf(deps, row), row.id);
      },
      {
        detail: op({
          tags,
          summary: "PDF receipt of a transaction with a final outcome",
          description:
            '200: `{contentType: "application/pdf", base64}`; with `Accept: application/pdf` the PDF bytes themselves (`Content-Type: application/pdf`, `Content-Disposition: attachment; filename="<id>.pdf"`). In Brazilian Portuguese (R$ 1.234,56, dd/mm/aaaa, São Paulo time); SANDBOX marking in test mode. Final outcomes: PAID, APPROVED, REFUNDED, REFUSED, CANCELLED, EXPIRED; otherwise 400 `receipt_not_available`.',
          security: "apikey",
          ok: {
            200: [
              ReceiptSchema,
              {
                content: "application/pdf",
                description:
                  "The receipt PDF (with `Accept: application/pdf`), sent as an attachment named `<id>.pdf`.",
              },
            ],
          },
          errors: [400, ...A, 404],
        }),
      },
    )
    .get(
      "/v1/payments/:id/payer",
      async ({ auth, params }) => payerOf(await getPayment(deps, auth, params.id)) ?? { name: null, document: null },
      {
        detail: op({
          tags,
          summary: "The payer as the PSP reported them at settlement (name, masked document)",
          description:
            "200 `{name, document}`: what the payer's bank or the PSP reported when the payment settled (the receipt prints the same); both null before settlement or when nothing was reported. `document` is masked as banks print it (a CPF keeps only its middle six digits: `***.982.247-**`); never a whole CPF, and nothing of a payer the payer lock refused.",
          security: "apikey",
          ok: { 200: PayerSchema },
          errors: [...A, 404],
        }),
      },
    );
}
