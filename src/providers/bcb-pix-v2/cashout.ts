/**
 * Cashout refunds through an `efi` connection (extensions.md "Refunds by cashout"): a refund with
 * no `strategy` (the contract's default) or `strategy: "cashout"` is a new Pix sent (send.ts) to
 * `destinationKey`, or, without it, to the payer's CPF/CNPJ as a Pix key (the charge's expected
 * payer, else its customer's document); `idEnvio` = the refund id without `re_` (its
 * `providerRefundId`). `strategy: "devolution"` stays a devolução (devolucao.ts).
 *
 * Plan: a `destinationKey` that is no Pix key (CPF/CNPJ with check digits, e-mail, `+55` phone,
 * EVP) -> invalid on `destinationKey`; no key and no valid payer document -> invalid on
 * `destinationKey` (400, nothing stored).
 * Status table (SendOutcome -> RefundOutcome -> refund status):
 *   processing      -> pending, inProgress, checkAt     -> IN_PROGRESS
 *   paid            -> settled                          -> REFUNDED
 *   rejected        -> rejected (Efí's code and text)   -> FAILED (balance restored by applyRefundStatus)
 *   absent          -> retryable on a status query (the send is not found yet; checked again)
 *   other failures  -> as they are (retried)
 */
import type {
  ProviderContext,
  RefundOutcome,
  RefundPlan,
  RefundPlanRequest,
  RefundRecord,
  SendDestination,
  SendOutcome,
  SendRequest,
  TransactionRow,
} from "../../domain/providers/types";
import { classifyPixKey, documentPixKey } from "../../pix/keys";
import { ID_ENVIO_RE } from "./send";

/** The payer's document of a charge: the payer lock's expected CPF/CNPJ, else the customer's. */
function payerDocument(tx: TransactionRow): string | null {
  return tx.expectedPayerTaxId ?? tx.customerDocument ?? null;
}

/**
 * Where a cashout of `tx` goes: `destinationKey` when given (null when it is no Pix key), else the payer's document as
 * a key (null when unknown).
 */
export function cashoutDestination(
  tx: TransactionRow,
  destinationKey: string | null | undefined,
): SendDestination | null {
  if (destinationKey !== null && destinationKey !== undefined) {
    const k = classifyPixKey(destinationKey);
    return k ? { type: "pix_key", pixKey: k.key, pixKeyType: k.type, taxId: null, name: null } : null;
  }
  const doc = documentPixKey(payerDocument(tx));
  return doc
    ? { type: "pix_key", pixKey: doc.key, pixKeyType: doc.type, taxId: doc.key, name: tx.customerName ?? null }
    : null;
}

/** The plan of a cashout refund (see the header). */
export function planCashout(ctx: ProviderContext, req: RefundPlanRequest): RefundPlan {
  if (req.method !== "PIX")
    return {
      status: "not_supported",
      code: "not_pix",
      message: "Only Pix payments can be refunded through this Pix provider.",
    };
  if (req.destinationKey !== undefined && !classifyPixKey(req.destinationKey))
    return {
      status: "invalid",
      code: "invalid_pix_key",
      param: "destinationKey",
      message:
        "destinationKey must be a Pix key: a CPF or CNPJ (digits), an e-mail, a +55 phone number or a random key (EVP).",
    };
  if (!cashoutDestination(req.transaction, req.destinationKey))
    return {
      status: "invalid",
      code: "no_destination",
      param: "destinationKey",
      message: 'The payer\'s CPF/CNPJ is not known for this charge: give destinationKey, or use strategy "devolution".',
    };
  const id = req.refundId.startsWith("re_") ? req.refundId.slice(3) : req.refundId;
  if (!ID_ENVIO_RE.test(id))
    return { status: "not_supported", code: "bad_id_envio", message: "The refund id cannot name a Pix send." };
  return { status: "pending", checkAt: ctx.clock.nowMs(), strategy: "cashout", providerRefundId: id };
}

/** The send of cashout refund `refund` (null when its destination or id is missing). */
export function cashoutSend(refund: RefundRecord, tx: TransactionRow, resumed: boolean): SendRequest | null {
  const destination = cashoutDestination(tx, refund.destinationKey);
  if (!destination || !refund.providerRefundId) return null;
  return {
    sendId: refund.providerRefundId,
    amount: refund.amount,
    destination,
    description: refund.reason,
    resumed,
    requestedAt: refund.createdAt,
  };
}

/** A send's outcome as the refund's (the header's table). */
export function refundOutcomeOfSend(o: SendOutcome): RefundOutcome {
  switch (o.status) {
    case "paid":
      return { status: "settled" };
    case "processing":
      return { status: "pending", inProgress: true, ...(o.checkAt !== undefined ? { checkAt: o.checkAt } : {}) };
    case "absent":
      return { status: "retryable", code: "send_not_found", message: "Efí does not know the send yet." };
    default:
      return o;
  }
}
