/**
 * Draws a bank boleto on an A4 page in the FEBRABAN layout: the "Recibo do Pagador" stub, the
 * cut line and the "Ficha de Compensação" (bank code with its digit and the linha digitável in
 * the header; local de pagamento, vencimento, beneficiário with CNPJ, agência/código do
 * beneficiário, data do documento, nº do documento, espécie doc., aceite, data do processamento,
 * nosso número, uso do banco, carteira, espécie, quantidade, valor, valor do documento,
 * instruções, deductions and additions, pagador, sacador/avalista) and the Interleaved 2 of 5
 * barcode of the 44 digits at the foot, 103 mm x 13 mm (bwip-js `interleaved2of5`).
 */
import bwipjs from "bwip-js/node";
import type { PDFDocument } from "pdf-lib";
import { formatLine } from "../../../formats/boleto";
import type { Fonts } from "./document";
import { cell, rule, sandboxMark, text, wrap, type Pen } from "./draw";

/** Everything printed on the slip, already formatted for display (pt-BR). */
export interface BoletoSlip {
  /** COMPE code (3 digits) and its check digit. */
  bank: string;
  bankDigit: number;
  bankName: string;
  /** 47-digit linha digitável and 44-digit barcode. */
  line: string;
  barcode: string;
  /** `dd/mm/aaaa`. */
  dueDate: string;
  /** `R$ 49,90`. */
  amount: string;
  /** Beneficiary's name (legal name when set) and formatted CNPJ/CPF line, e.g. `CNPJ 11.222.333/0001-81`. */
  beneficiary: string;
  beneficiaryTaxId: string;
  /** `agência / código do beneficiário`. */
  agencyCode: string;
  ourNumber: string;
  wallet: string;
  documentNumber: string;
  /** `dd/mm/aaaa`. */
  documentDate: string;
  processingDate: string;
  /** Payer's name and masked document, one line. */
  payer: string;
  instructions: string[];
  /** Test mode: the SANDBOX marking. */
  sandbox: boolean;
}

const LEFT = 40;
const WIDTH = 515;
/** Width of the right-hand column (vencimento, nosso número, amounts). */
const RIGHT_W = 150;
const MAIN_W = WIDTH - RIGHT_W;
const MM = 72 / 25.4;

/** Bank name, `001-9` in a box and `right` (the line or "Recibo do Pagador") above a thick rule. */
function header(pen: Pen, s: BoletoSlip, y: number, right: string, rightSize: number): void {
  text(pen, s.bankName, LEFT, y, { size: 10, bold: true, width: 125 });
  pen.page.drawLine({ start: { x: LEFT + 130, y: y - 6 }, end: { x: LEFT + 130, y: y + 16 }, thickness: 1.2 });
  text(pen, `${s.bank}-${s.bankDigit}`, LEFT + 160, y, { size: 14, bold: true, align: "center" });
  pen.page.drawLine({ start: { x: LEFT + 190, y: y - 6 }, end: { x: LEFT + 190, y: y + 16 }, thickness: 1.2 });
  text(pen, right, LEFT + WIDTH, y, { size: rightSize, bold: true, align: "right", width: WIDTH - 200 });
  rule(pen, LEFT, LEFT + WIDTH, y - 6, { thickness: 1.5 });
}

/** Cells left to right on one row: `[label, value, width, align?]`. */
function row(pen: Pen, y: number, h: number, cells: [string, string, number, ("left" | "right")?, boolean?][]): void {
  let x = LEFT;
  for (const [label, value, w, align, bold] of cells) {
    cell(pen, { x, y, w, h }, label, value, { align, bold });
    x += w;
  }
}

/** The payer's stub above the cut line. */
function payerStub(pen: Pen, s: BoletoSlip, top: number): number {
  header(pen, s, top, "Recibo do Pagador", 11);
  const h = 24;
  let y = top - 6 - h;
  row(pen, y, h, [
    ["Beneficiário", s.beneficiary, MAIN_W],
    ["Vencimento", s.dueDate, RIGHT_W, "right", true],
  ]);
  y -= h;
  row(pen, y, h, [
    ["CPF/CNPJ do beneficiário", s.beneficiaryTaxId, MAIN_W / 2],
    ["Agência/Código do beneficiário", s.agencyCode, MAIN_W / 2],
    ["Nosso número", s.ourNumber, RIGHT_W, "right"],
  ]);
  y -= h;
  row(pen, y, h, [
    ["Pagador", s.payer, MAIN_W],
    ["Valor do documento", s.amount, RIGHT_W, "right", true],
  ]);
  y -= h;
  row(pen, y, h, [
    ["Nº do documento", s.documentNumber, MAIN_W / 2],
    ["Data do documento", s.documentDate, MAIN_W / 2],
    ["(=) Valor cobrado", "", RIGHT_W, "right"],
  ]);
  text(pen, "Autenticação mecânica", LEFT + WIDTH, y - 10, { size: 7, align: "right" });
  return y - 10;
}

/** The ficha de compensação from `top` down; returns the y under the pagador box. */
function ficha(pen: Pen, s: BoletoSlip, top: number): number {
  header(pen, s, top, formatLine(s.line), 12);
  const h = 24;
  let y = top - 6 - h;
  row(pen, y, h, [
    ["Local de pagamento", "Pagável em qualquer banco até o vencimento", MAIN_W],
    ["Vencimento", s.dueDate, RIGHT_W, "right", true],
  ]);
  y -= h;
  cell(pen, { x: LEFT, y, w: MAIN_W, h }, "Beneficiário", s.beneficiary, {
    keep: s.beneficiaryTaxId ? ` — ${s.beneficiaryTaxId}` : "",
  });
  cell(pen, { x: LEFT + MAIN_W, y, w: RIGHT_W, h }, "Agência/Código do beneficiário", s.agencyCode, { align: "right" });
  y -= h;
  row(pen, y, h, [
    ["Data do documento", s.documentDate, 70],
    ["Nº do documento", s.documentNumber, 135],
    ["Espécie doc.", "DM", 40],
    ["Aceite", "N", 35],
    ["Data do processamento", s.processingDate, 85],
    ["Nosso número", s.ourNumber, RIGHT_W, "right"],
  ]);
  y -= h;
  row(pen, y, h, [
    ["Uso do banco", "", 80],
    ["Carteira", s.wallet, 60],
    ["Espécie", "R$", 55],
    ["Quantidade", "", 85],
    ["(x) Valor", "", 85],
    ["(=) Valor do documento", s.amount, RIGHT_W, "right", true],
  ]);
  const side = [
    "(-) Desconto / Abatimento",
    "(-) Outras deduções",
    "(+) Mora / Multa",
    "(+) Outros acréscimos",
    "(=) Valor cobrado",
  ];
  const instrTop = y;
  for (const label of side) {
    y -= h;
    cell(pen, { x: LEFT + MAIN_W, y, w: RIGHT_W, h }, label, "", { align: "right" });
  }
  cell(pen, { x: LEFT, y, w: MAIN_W, h: instrTop - y }, "Instruções (texto de responsabilidade do beneficiário)", "");
  const lines = s.instructions.flatMap((i) => wrap(pen.fonts.regular, i, 8.5, MAIN_W - 8, 3)).slice(0, 8);
  lines.forEach((line, i) => {
    text(pen, line, LEFT + 4, instrTop - 20 - i * 12, { size: 8.5, width: MAIN_W - 8 });
  });
  const payerH = 40;
  y -= payerH;
  cell(pen, { x: LEFT, y, w: WIDTH, h: payerH }, "Pagador", s.payer);
  text(pen, "Sacador/Avalista:", LEFT + 3, y + 4, { size: 6.5 });
  text(pen, "Autenticação mecânica — Ficha de Compensação", LEFT + WIDTH, y - 10, {
    size: 7,
    bold: true,
    align: "right",
  });
  return y - 10;
}

/** Draws the whole slip on a new A4 page of `doc`. */
export async function drawBoleto(doc: PDFDocument, fonts: Fonts, s: BoletoSlip): Promise<void> {
  const pen: Pen = { page: doc.addPage([595, 842]), fonts };
  if (s.sandbox) sandboxMark(pen, "boleto de teste, não pague: sem valor legal");
  const stubBottom = payerStub(pen, s, 790);
  const cut = stubBottom - 22;
  rule(pen, LEFT, LEFT + WIDTH, cut, { dashed: true });
  text(pen, "✂ Corte na linha pontilhada", LEFT, cut + 4, { size: 6.5 });
  const bottom = ficha(pen, s, cut - 30);
  const png = await bwipjs.toBuffer({
    bcid: "interleaved2of5",
    text: s.barcode,
    scale: 3,
    height: 13,
    includetext: false,
    backgroundcolor: "FFFFFF",
  });
  pen.page.drawImage(await doc.embedPng(png), { x: LEFT, y: bottom - 10 - 13 * MM, width: 103 * MM, height: 13 * MM });
}
