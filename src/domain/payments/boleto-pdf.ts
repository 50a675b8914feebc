/**
 * The boleto PDF served at `boletoPdfUrl` (public, by unguessable raw id), in Brazilian
 * Portuguese (extensions.md "Receipts as files"): the facts of the transaction's BOLETO method,
 * its merchant (legal name and CNPJ when the operator set them) and payer, drawn in the FEBRABAN
 * "ficha de compensação" layout by ./pdf/boleto-layout.ts. SANDBOX marking in test mode.
 */
import type { Deps } from "../deps";
import { bankCheckDigit } from "../../formats/boleto";
import type { TransactionRow } from "../providers/types";
import { drawBoleto, type BoletoSlip } from "./pdf/boleto-layout";
import { newDocument } from "./pdf/document";
import { calendarDateBR, dateBR, formatTaxId, maskTaxId, money, taxIdLabel } from "./pdf/format";
import { descriptionOf } from "./receipt";
import { methodDetails, offeredMethods } from "./views";

export { formatLine } from "../../formats/boleto";

/** Names of the COMPE bank codes Cofre may print; another code prints as "Banco <code>". */
const BANK_NAMES: Record<string, string> = {
  "001": "Banco do Brasil",
  "033": "Santander",
  "104": "Caixa",
  "237": "Bradesco",
  "341": "Itaú",
};

/**
 * The printed facts of `row`'s boleto. The free field follows Banco do Brasil's 7-digit agreement
 * layout (the sandbox's, src/providers/sandbox/boleto.ts): 6 zeros, nosso número (17 digits,
 * starting with the 7-digit agreement, the "código do beneficiário"), carteira (2 digits).
 */
export async function boletoSlip(
  deps: Deps,
  row: TransactionRow,
  b: { barcode: string; line: string; dueDate: string },
): Promise<BoletoSlip> {
  const account = await deps.store.read.accounts.byId(row.accountId);
  const bank = b.barcode.slice(0, 3);
  const ourNumber = b.barcode.slice(25, 42);
  const description = descriptionOf(row);
  const instructions = ["Não receber após o vencimento."];
  if (description) instructions.push(`Referente a: ${description}`);
  if (!row.livemode) instructions.push("SANDBOX: boleto gerado em modo de teste; não pague este documento.");
  return {
    bank,
    bankDigit: bankCheckDigit(bank),
    bankName: BANK_NAMES[bank] ?? `Banco ${bank}`,
    line: b.line,
    barcode: b.barcode,
    dueDate: calendarDateBR(b.dueDate),
    amount: money(row.amount, row.currency),
    beneficiary: account?.legalName ?? account?.tradeName ?? account?.name ?? "—",
    beneficiaryTaxId: account?.taxId ? `${taxIdLabel(account.taxId)} ${formatTaxId(account.taxId)}` : "",
    agencyCode: `0001 / ${ourNumber.slice(0, 7)}`,
    ourNumber,
    wallet: b.barcode.slice(42, 44),
    documentNumber: row.id,
    documentDate: dateBR(row.createdAt),
    processingDate: dateBR(row.createdAt),
    payer: `${row.customerName ?? "Não informado"}${row.customerDocument ? ` — CPF/CNPJ ${maskTaxId(row.customerDocument)}` : ""}`,
    instructions,
    sandbox: !row.livemode,
  };
}

/** PDF bytes of the boleto of `row`, or null when the transaction offers no finalised boleto. */
export async function buildBoletoPdf(deps: Deps, row: TransactionRow): Promise<Uint8Array | null> {
  if (!offeredMethods(row).includes("BOLETO")) return null;
  const b = methodDetails(row).BOLETO;
  if (!b || typeof b.barcode !== "string" || typeof b.line !== "string" || typeof b.dueDate !== "string") return null;
  const slip = await boletoSlip(deps, row, { barcode: b.barcode, line: b.line, dueDate: b.dueDate });
  const { doc, fonts } = await newDocument(`Boleto ${row.id}`, row.createdAt);
  await drawBoleto(doc, fonts, slip);
  return doc.save({ useObjectStreams: false });
}
