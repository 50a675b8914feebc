/**
 * `POST /v1/payments` (interface.md): the body rules of the payments group, then the shared
 * `createTransaction` (origin "payments") under the body's `idempotencyKey` (scope
 * "POST /v1/payments"; a replay returns the original 201 body). Rules: `paymentMethods` a
 * non-empty subset of the six without repeats; `currency` 3-8 letters (upper-cased; PIX and
 * BOLETO need BRL); `customerEmail` RFC 5322 (validator's isEmail); `metadata.returnUrl` an
 * absolute http(s) URL when sent (used by CREDIT_CARD); `metadata.phone` in E.164 required with
 * MBWAY (libphonenumber-js); `webhookUrl` checked like webhook endpoints.
 */
import { isValidPhoneNumber } from "libphonenumber-js";
import { isEmailAddress } from "../../lib/email";
import type { Deps } from "../deps";
import { invalidParam } from "../errors";
import type { Caller } from "../scope";
import { createTransaction } from "../charges/create";
import { sanitizeMetadata } from "../charges/metadata";
import { PAYMENT_METHODS, type PaymentMethod } from "../charges/model";
import { MAX_PIX_AMOUNT } from "../charges/service";
import { checkIdempotencyKey } from "../idempotency/store";
import { checkWebhookUrl } from "../webhooks/url-rules";
import { toTransactionCreate } from "./views";

export interface CreatePaymentBody {
  amount: number;
  currency?: string;
  paymentMethods: string[];
  customerId?: string;
  customerName?: string;
  customerDocument?: string;
  customerEmail?: string;
  metadata?: Record<string, unknown>;
  webhookUrl?: string;
  idempotencyKey: string;
}

export const PAYMENTS_CREATE_SCOPE = "POST /v1/payments";
const E164 = /^\+[1-9]\d{6,14}$/;
const BRL_ONLY: PaymentMethod[] = ["PIX", "BOLETO"];

/**
 * Validates and creates; returns `{status, body, replayed}` (body = the create shape). Throws DomainError
 * 400/403/409/422/503.
 */
export async function createPayment(deps: Deps, auth: Caller, body: CreatePaymentBody) {
  checkIdempotencyKey(body.idempotencyKey, "idempotencyKey");
  const methods = checkMethods(body.paymentMethods);
  if (!Number.isSafeInteger(body.amount) || body.amount <= 0)
    throw invalidParam("amount", "amount must be an integer > 0.", "invalid_amount");
  const currency = (body.currency ?? "BRL").toUpperCase();
  if (!/^[A-Z0-9]{3,8}$/.test(currency))
    throw invalidParam("currency", "currency must be 3-8 letters or digits (e.g. BRL, EUR, USDT).", "invalid_currency");
  const brlOnly = methods.filter((m) => BRL_ONLY.includes(m));
  if (brlOnly.length > 0 && currency !== "BRL")
    throw invalidParam("currency", `${brlOnly.join(" and ")} accept only BRL.`, "invalid_currency");
  if (methods.includes("PIX") && body.amount > MAX_PIX_AMOUNT)
    throw invalidParam("amount", `amount must be at most ${MAX_PIX_AMOUNT} for PIX.`, "invalid_amount");
  if (methods.includes("BOLETO") && body.amount > 9_999_999_999)
    throw invalidParam("amount", "amount must be at most 9999999999 for BOLETO.", "invalid_amount");
  if (body.customerEmail !== undefined && !isEmailAddress(body.customerEmail, { allow_utf8_local_part: false }))
    throw invalidParam("customerEmail", "customerEmail must be a valid email address (RFC 5322).");
  const metadata = sanitizeMetadata(body.metadata ?? {});
  const returnUrl = metadata.returnUrl;
  if (returnUrl !== undefined && !isHttpUrl(returnUrl))
    throw invalidParam("metadata.returnUrl", "metadata.returnUrl must be an absolute http(s) URL.");
  const phone = metadata.phone;
  if (methods.includes("MBWAY")) {
    if (phone === undefined)
      throw invalidParam("metadata.phone", "MBWAY requires metadata.phone in E.164 format (e.g. +351912345678).");
    if (typeof phone !== "string" || !E164.test(phone) || !isValidPhoneNumber(phone))
      throw invalidParam(
        "metadata.phone",
        "metadata.phone must be a valid phone number in E.164 format (e.g. +351912345678).",
      );
  }
  const webhookUrl =
    body.webhookUrl === undefined
      ? null
      : checkWebhookUrl(body.webhookUrl, auth.livemode, deps.config.webhookAllowPrivate, "webhookUrl");

  return deps.idempotency.run(
    {
      accountId: auth.accountId,
      livemode: auth.livemode,
      scope: PAYMENTS_CREATE_SCOPE,
      key: body.idempotencyKey,
      body,
    },
    async (claim) => {
      const row = await createTransaction(
        deps,
        auth,
        {
          origin: "payments",
          methods,
          amount: body.amount,
          currency,
          customer: {
            id: body.customerId ?? null,
            name: body.customerName ?? null,
            document: body.customerDocument?.trim() || null,
            email: body.customerEmail ?? null,
            phone: typeof phone === "string" ? phone : null,
          },
          metadata,
          webhookUrl,
        },
        { claim, render: toTransactionCreate, status: 201, view: "transaction" },
      );
      return { status: 201, body: toTransactionCreate(row) };
    },
  );
}

function checkMethods(methods: string[]): PaymentMethod[] {
  if (!Array.isArray(methods) || methods.length === 0)
    throw invalidParam("paymentMethods", "paymentMethods must list at least one method.");
  const seen = new Set<string>();
  for (const m of methods) {
    if (!PAYMENT_METHODS.includes(m as PaymentMethod))
      throw invalidParam(
        "paymentMethods",
        `Unknown payment method ${JSON.stringify(m)}; use ${PAYMENT_METHODS.join(", ")}.`,
      );
    if (seen.has(m)) throw invalidParam("paymentMethods", `${m} is listed twice.`);
    seen.add(m);
  }
  return methods as PaymentMethod[];
}

function isHttpUrl(v: unknown): boolean {
  if (typeof v !== "string" || v.length > 2048) return false;
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}
