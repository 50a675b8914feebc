/**
 * The service's own PDF receipt of a transaction with a final outcome (interface.md
 * `GET /v1/payments/{id}/receipt`), drawn with pdf-lib: merchant, amount, method, status,
 * paid / refunded time, Pix end-to-end id, transaction id and a verification QR pointing at the
 * transaction's checkout page (which shows its live status). Deterministic for a given state.
 */
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import QRCode from "qrcode";
import type { Deps } from "../../deps";
import { ApiError } from "../../http/errors";
import type { TransactionRow } from "../../providers/types";
import { accountName } from "../charges/repo";
import { checkoutUrl } from "../charges/views";
import { formatAmount, formatUtc, winAnsi } from "./pdf-text";
import { listRefunds } from "./refund-repo";
import { offeredMethods } from "./views";

/** Statuses with a final outcome (a receipt exists only for these). */
export const RECEIPT_STATUSES = new Set(["PAID", "APPROVED", "REFUNDED", "REFUSED", "CANCELLED", "EXPIRED"]);

/** `{contentType: "application/pdf", base64}` of the receipt. Throws 400 `receipt_not_available`. */
export async function buildReceipt(deps: Deps, row: TransactionRow): Promise<{ contentType: "application/pdf"; base64: string }> {
  if (!RECEIPT_STATUSES.has(row.status))
    throw new ApiError("receipt_not_available", `No receipt yet: the transaction is ${row.status}; receipts exist for final outcomes only.`);
  const merchant = accountName(deps.db, row.accountId) ?? "Merchant";
  const refunds = listRefunds(deps.db, row.id).filter((r) => r.status === "REFUNDED");
  const refundedAt = refunds.reduce<number | null>((a, r) => (r.refundedAt !== null && (a === null || r.refundedAt > a) ? r.refundedAt : a), null);
  const refundedTotal = refunds.reduce((a, r) => a + r.amount, 0);
  const verifyUrl = checkoutUrl(deps.config, row.id);

  const lines: [string, string][] = [
    ["Merchant", merchant],
    ["Amount", formatAmount(row.amount, row.currency)],
    ["Method", row.paidWith ?? offeredMethods(row).join(", ")],
    ["Status", row.status],
    ["Created at", formatUtc(row.createdAt)],
  ];
  if (row.paidAt !== null) lines.push(["Paid at", formatUtc(row.paidAt)]);
  if (refundedTotal > 0) lines.push(["Refunded", formatAmount(refundedTotal, row.currency)]);
  if (refundedAt !== null) lines.push(["Refunded at", formatUtc(refundedAt)]);
  if (row.endToEndId && row.paidWith === "PIX") lines.push(["End-to-end id", row.endToEndId]);
  lines.push(["Transaction id", row.id]);

  const doc = await PDFDocument.create();
  const at = new Date(row.updatedAt);
  doc.setTitle(`Receipt ${row.id}`);
  doc.setProducer("Cofre");
  doc.setCreator("Cofre");
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText("Payment receipt", { x: 50, y: 780, size: 22, font: bold });
  page.drawText(winAnsi(merchant), { x: 50, y: 755, size: 12, font, color: rgb(0.3, 0.3, 0.3) });
  let y = 710;
  for (const [label, value] of lines) {
    page.drawText(`${label}:`, { x: 50, y, size: 11, font: bold });
    page.drawText(winAnsi(value), { x: 170, y, size: 11, font });
    y -= 22;
  }
  const png = await QRCode.toBuffer(verifyUrl, { errorCorrectionLevel: "M", margin: 1, width: 240 });
  const qr = await doc.embedPng(png);
  page.drawImage(qr, { x: 50, y: y - 150, width: 130, height: 130 });
  page.drawText("Verify this receipt:", { x: 195, y: y - 60, size: 10, font: bold });
  page.drawText(winAnsi(verifyUrl), { x: 195, y: y - 76, size: 8, font });
  page.drawText("Issued by Cofre. Amounts in the currency's minor unit shown with 2 decimals.", { x: 50, y: 60, size: 8, font, color: rgb(0.4, 0.4, 0.4) });
  const bytes = await doc.save({ useObjectStreams: false });
  return { contentType: "application/pdf", base64: Buffer.from(bytes).toString("base64") };
}
