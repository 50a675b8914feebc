/**
 * The payer as the PSP reported them at settlement (issue 29): their name and their document,
 * masked before it is stored (payments/pdf/format.ts `maskTaxId`: a CPF keeps only its middle six
 * digits), kept in `method_details[<paid method>].payer`. Never the real document: the payer
 * lock's rule (interface.md: "The payer's real document is never exposed") stays.
 */
import type { TransactionRow } from "../providers/types";
import { Nullable, Type, View, type Static } from "../../lib/view-schema";
import { maskTaxId } from "./pdf/format";
import { methodDetails } from "./views";

/** What is stored and shown: `{name, document}`, each null when the PSP did not report it. */
export interface Payer {
  name: string | null;
  /** Masked (`***.982.247-**`), never the whole CPF. */
  document: string | null;
}

/** The block to store for a settlement reporting `name` and `taxId` (raw), or null when neither is known. */
export function payerBlock(name: string | null | undefined, taxId: string | null | undefined): Payer | null {
  const n = typeof name === "string" && name.trim() ? name.trim().slice(0, 200) : null;
  const d = typeof taxId === "string" && taxId.trim() ? maskTaxId(taxId) : null;
  return n || d ? { name: n, document: d } : null;
}

/** The payer stored with `row` (by the method it was paid with), or null. */
export function payerOf(row: Pick<TransactionRow, "methodDetails" | "paidWith">): Payer | null {
  if (!row.paidWith) return null;
  const p = methodDetails(row)[row.paidWith]?.payer as Record<string, unknown> | undefined;
  if (!p || typeof p !== "object") return null;
  const str = (v: unknown) => (typeof v === "string" && v ? v : null);
  const name = str(p.name);
  const document = str(p.document);
  return name || document ? { name, document } : null;
}

/** GET /v1/payments/{id}/payer. */
export const PayerSchema = View("PaymentPayer", {
  name: Nullable(Type.String({ description: "The payer's name as their bank or the PSP reported it." })),
  document: Nullable(
    Type.String({
      description:
        "The payer's CPF masked as banks print it (`***.982.247-**`), or a company's CNPJ; never a whole CPF.",
    }),
  ),
});
const _payer: Static<typeof PayerSchema> = {} as Payer;
void _payer;
