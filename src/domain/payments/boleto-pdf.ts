/**
 * The boleto PDF served at `boletoPdfUrl` (public, by unguessable raw id): a FEBRABAN-style
 * payment slip with bank header, typeable line, beneficiary, payer, due date, amount and the
 * Interleaved 2 of 5 barcode of the 44 digits drawn as an image (bwip-js `interleaved2of5`).
 */
import bwipjs from "bwip-js/node";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import type { Deps } from "../../deps";
import type { TransactionRow } from "../../providers/types";
import { accountName } from "../charges/repo";
import { formatAmount, winAnsi } from "./pdf-text";
import { methodDetails, offeredMethods } from "./views";

/** `00190.00009 01234.567897 01234.567178 3 16390000012345` display of a 47-digit line. */
export function formatLine(l: string): string {
  return `${l.slice(0, 5)}.${l.slice(5, 10)} ${l.slice(10, 15)}.${l.slice(15, 21)} ${l.slice(21, 26)}.${l.slice(26, 32)} ${l[32]} ${l.slice(33)}`;
}

/** PDF bytes of the boleto of `row`, or null when the transaction offers no finalised boleto. */
export async function buildBoletoPdf(deps: Deps, row: TransactionRow): Promise<Uint8Array | null> {
  if (!offeredMethods(row).includes("BOLETO")) return null;
  const b = methodDetails(row).BOLETO;
  if (!b || typeof b.barcode !== "string" || typeof b.line !== "string") return null;
  const merchant = accountName(deps.db, row.accountId) ?? "Merchant";
  const doc = await PDFDocument.create();
  doc.setTitle(`Boleto ${row.id}`);
  doc.setProducer("Cofre");
  doc.setCreationDate(new Date(row.createdAt));
  doc.setModificationDate(new Date(row.createdAt));
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const bank = b.barcode.slice(0, 3);
  page.drawText(`${bank}-9`, { x: 40, y: 780, size: 18, font: bold });
  page.drawText(formatLine(b.line), { x: 130, y: 782, size: 13, font: bold });
  page.drawLine({ start: { x: 40, y: 772 }, end: { x: 555, y: 772 }, thickness: 1, color: rgb(0, 0, 0) });
  const rows: [string, string][] = [
    ["Beneficiario", merchant],
    ["Pagador", [row.customerName, row.customerDocument].filter(Boolean).join(" - ") || "-"],
    ["Vencimento", String(b.dueDate ?? "")],
    ["Valor do documento", formatAmount(row.amount, row.currency)],
    ["Nosso numero", b.barcode.slice(25, 42)],
    ["Documento", row.id],
  ];
  let y = 745;
  for (const [label, value] of rows) {
    page.drawText(label, { x: 40, y, size: 8, font, color: rgb(0.35, 0.35, 0.35) });
    page.drawText(winAnsi(value), { x: 40, y: y - 13, size: 11, font });
    y -= 34;
  }
  page.drawText("SANDBOX - sem valor legal / no legal value", { x: 330, y: 745, size: 9, font: bold, color: rgb(0.7, 0, 0) });
  const png = await bwipjs.toBuffer({ bcid: "interleaved2of5", text: b.barcode, scale: 2, height: 13, includetext: false });
  const img = await doc.embedPng(png);
  const width = 103 * 2.835; // 103 mm, the FEBRABAN barcode length
  page.drawImage(img, { x: 40, y: y - 60, width, height: 13 * 2.835 });
  page.drawText(b.barcode, { x: 40, y: y - 75, size: 8, font });
  return doc.save({ useObjectStreams: false });
}
