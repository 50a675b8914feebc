/**
 * The service's own PDF receipt ("comprovante") of a transaction with a final outcome
 * (interface.md `GET /v1/payments/{id}/receipt`, extensions.md "Receipts as files"), in
 * Brazilian Portuguese: merchant (trade name, legal name and CNPJ/CPF from the merchant profile),
 * payer (as the PSP reported them, else the customer; name, masked document), amount, method, status, description,
 * times in São Paulo, refunds, Pix end-to-end id, transaction id and a verification QR pointing at the checkout page
 * (which shows the live status). SANDBOX marking in test mode. Deterministic for a given state.
 */
import QRCode from "qrcode";
import type { Deps } from "../deps";
import { DomainError } from "../errors";
import type { TransactionRow } from "../providers/types";
import { checkoutUrl, rowMetadata } from "../charges/views";
import { RECEIPTABLE } from "../charges/model";
import { newDocument } from "./pdf/document";
import { GREY, rule, sandboxMark, text, wrap, type Pen } from "./pdf/draw";
import { dateTimeBR, formatTaxId, maskTaxId, money, taxIdLabel } from "./pdf/format";
import { offeredMethods } from "./views";
import { payerOf } from "./payer";
import { displayNameOf } from "../accounts/profile";

/** Statuses with a final outcome (a receipt exists only for these). */
export const RECEIPT_STATUSES: ReadonlySet<string> = new Set(RECEIPTABLE);

/** Portuguese names of the final statuses (the API code follows in parentheses on the receipt). */
const STATUS_PT: Record<string, string> = {
  PAID: "Pago",
  APPROVED: "Aprovado",
  REFUNDED: "Estornado",
  REFUSED: "Recusado",
  CANCELLED: "Cancelado",
  EXPIRED: "Expirado",
};

/** Portuguese names of the payment methods. */
const METHOD_PT: Record<string, string> = {
  PIX: "Pix",
  CREDIT_CARD: "Cartão de crédito",
  BOLETO: "Boleto bancário",
  MBWAY: "MB WAY",
  MULTIBANCO: "Multibanco",
  CRYPTO: "Criptomoeda",
};

/** The `description` the merchant gave (kept in metadata by the charges API), or null. */
export function descriptionOf(row: TransactionRow): string | null {
  const d = rowMetadata(row).description;
  return typeof d === "string" && d.trim() ? d.trim() : null;
}

/** `{contentType: "application/pdf", base64}` of the receipt (the contract's JSON). Throws as receiptPdf. */
export async function buildReceipt(
  deps: Deps,
  row: TransactionRow,
): Promise<{ contentType: "application/pdf"; base64: string }> {
  return { contentType: "application/pdf", base64: Buffer.from(await receiptPdf(deps, row)).toString("base64") };
}

/** PDF bytes of the receipt of `row`. Throws DomainError 400 `receipt_not_available` when the outcome is not final. */
export async function receiptPdf(deps: Deps, row: TransactionRow): Promise<Uint8Array> {
  if (!RECEIPT_STATUSES.has(row.status))
    throw new DomainError(
      "receipt_not_available",
      `No receipt yet: the transaction is ${row.status}; receipts exist for final outcomes only.`,
    );
  const account = await deps.store.read.accounts.byId(row.accountId);
  const refunds = (await deps.store.read.refunds.listForTransaction(row.id)).filter((r) => r.status === "REFUNDED");
  const refundedAt = refunds.reduce<number | null>(
    (a, r) => (r.refundedAt !== null && (a === null || r.refundedAt > a) ? r.refundedAt : a),
    null,
  );
  const refundedTotal = refunds.reduce((a, r) => a + r.amount, 0);
  const verifyUrl = checkoutUrl(deps.config, row.id);

  const merchantName = account ? displayNameOf(account) : "—";
  const merchant: [string, string][] = [["Nome", merchantName]];
  if (account?.legalName) merchant.push(["Razão social", account.legalName]);
  if (account?.taxId) merchant.push([taxIdLabel(account.taxId), formatTaxId(account.taxId)]);
  // The payer as the PSP reported them when it did (./payer.ts), else the customer the merchant named.
  const reported = payerOf(row);
  const payer: [string, string][] = [["Nome", reported?.name ?? row.customerName ?? "Não informado"]];
  const payerDocument = reported?.document ?? (row.customerDocument ? maskTaxId(row.customerDocument) : null);
  if (payerDocument) payer.push(["CPF/CNPJ", payerDocument]);
  const payment: [string, string][] = [
    ["Valor", money(row.amount, row.currency)],
    [
      "Forma de pagamento",
      row.paidWith
        ? (METHOD_PT[row.paidWith] ?? row.paidWith)
        : offeredMethods(row)
            .map((m) => METHOD_PT[m] ?? m)
            .join(", "),
    ],
    ["Situação", `${STATUS_PT[row.status] ?? row.status} (${row.status})`],
  ];
  const description = descriptionOf(row);
  if (description) payment.push(["Descrição", description]);
  payment.push(["Criado em", dateTimeBR(row.createdAt)]);
  if (row.paidAt !== null) payment.push(["Pago em", dateTimeBR(row.paidAt)]);
  if (refundedTotal > 0) payment.push(["Valor estornado", money(refundedTotal, row.currency)]);
  if (refundedAt !== null) payment.push(["Estornado em", dateTimeBR(refundedAt)]);
  if (row.endToEndId && row.paidWith === "PIX") payment.push(["ID fim a fim (E2E)", row.endToEndId]);
  payment.push(["ID da transação", row.id]);

  const { doc, fonts } = await newDocument(`Comprovante ${row.id}`, row.updatedAt);
  const pen: Pen = { page: doc.addPage([595, 842]), fonts };
  if (!row.livemode) sandboxMark(pen, "comprovante de teste, sem valor fiscal ou legal");
  text(pen, "Comprovante de pagamento", 50, 780, { size: 20, bold: true });
  text(pen, account ? merchantName : "", 50, 758, { size: 12, color: GREY, width: 495 });
  let y = 722;
  for (const [title, lines] of [
    ["Recebedor", merchant],
    ["Pagador", payer],
    ["Pagamento", payment],
  ] as const) {
    text(pen, title, 50, y, { size: 11, bold: true });
    rule(pen, 50, 545, y - 5);
    y -= 21;
    for (const [label, value] of lines) {
      text(pen, `${label}:`, 50, y, { size: 9.5, bold: true, width: 130 });
      const wrapped = label === "Descrição" ? wrap(fonts.regular, value, 9.5, 355) : [value];
      for (const line of wrapped) {
        text(pen, line, 190, y, { size: 9.5, width: 355 });
        y -= 15;
      }
      y -= 2;
    }
    y -= 12;
  }
  const png = await QRCode.toBuffer(verifyUrl, { errorCorrectionLevel: "M", margin: 1, width: 240 });
  pen.page.drawImage(await doc.embedPng(png), { x: 50, y: y - 120, width: 110, height: 110 });
  text(pen, "Verifique este comprovante:", 175, y - 50, { size: 9.5, bold: true });
  text(pen, verifyUrl, 175, y - 65, { size: 8, width: 370 });
  text(pen, "Emitido por Cofre. Horários de Brasília (America/Sao_Paulo); datas no formato dd/mm/aaaa.", 50, 50, {
    size: 7.5,
    color: GREY,
  });
  return doc.save({ useObjectStreams: false });
}
