/**
 * The public payout destination (extensions.md "Payouts (money out)"): `{id, object:
 * "payout_destination", type, ...fields of its type, created_at}`; a CPF/CNPJ (`tax_id`, and the
 * key of a `cpf`/`cnpj` Pix key) is shown masked. Also the snapshot a payout keeps of it.
 */
import { iso } from "../../lib/clock";
import { maskTaxId } from "../payments/pdf/format";
import { DateTime, Nullable, OneOf, Type, View, type Static } from "../../lib/view-schema";
import type { PayoutDestinationRow } from "../../store/rows";
import { ACCOUNT_TYPES, PIX_KEY_TYPES, type AccountType, type PixKeyType } from "../../pix/key-types";

const MaskedTaxId = () =>
  Type.String({
    description: "CPF or CNPJ, masked (`***.456.789-**`, `**.345.678/0001-**`).",
    examples: ["***.456.789-**"],
  });
const common = {
  id: Type.String({ examples: ["pd_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  object: Type.Literal("payout_destination"),
};

export const PixKeyDestinationSchema = View("PixKeyDestination", {
  ...common,
  type: Type.Literal("pix_key"),
  pix_key: Type.String({
    description: "The key, normalised (a CPF or CNPJ key masked).",
    examples: ["fulano@example.com"],
  }),
  pix_key_type: OneOf(PIX_KEY_TYPES),
  name: Nullable(Type.String()),
  tax_id: Nullable(MaskedTaxId()),
  created_at: DateTime(),
});

export const BankAccountDestinationSchema = View("BankAccountDestination", {
  ...common,
  type: Type.Literal("bank_account"),
  name: Type.String(),
  tax_id: MaskedTaxId(),
  ispb: Type.String({ description: "8 digits.", examples: ["00360305"] }),
  branch: Type.String({ description: "1-4 digits.", examples: ["0001"] }),
  account: Type.String({ description: "Digits, check digit included.", examples: ["123456"] }),
  account_type: OneOf(ACCOUNT_TYPES),
  created_at: DateTime(),
});

/** Either view (by `type`). */
export const PayoutDestinationSchema = Type.Union([PixKeyDestinationSchema, BankAccountDestinationSchema]);
export type PublicPayoutDestination = Static<typeof PayoutDestinationSchema>;

/** GET /v1/payout_destinations. */
export const PayoutDestinationListSchema = View("PayoutDestinationList", {
  object: Type.Literal("list"),
  data: Type.Array(PayoutDestinationSchema),
});

/** A CPF as `***.456.789-**` (src/domain/payments/pdf/format.ts), a CNPJ as `**.345.678/0001-**`. */
export function maskDocument(v: string): string {
  if (/^[0-9A-Z]{12}\d{2}$/.test(v)) return `**.${v.slice(2, 5)}.${v.slice(5, 8)}/${v.slice(8, 12)}-**`;
  return maskTaxId(v);
}

/** The destination of `row` (the allowlist of its type). */
export function toPayoutDestination(row: PayoutDestinationRow): PublicPayoutDestination {
  const base = { id: row.id, object: "payout_destination" as const };
  if (row.type === "bank_account")
    return {
      ...base,
      type: "bank_account",
      name: row.name ?? "",
      tax_id: maskDocument(row.taxId ?? ""),
      ispb: row.ispb ?? "",
      branch: row.branch ?? "",
      account: row.account ?? "",
      account_type: row.accountType as AccountType,
      created_at: iso(row.createdAt),
    };
  const keyType = row.pixKeyType as PixKeyType;
  return {
    ...base,
    type: "pix_key",
    pix_key: keyType === "cpf" || keyType === "cnpj" ? maskDocument(row.pixKey ?? "") : (row.pixKey ?? ""),
    pix_key_type: keyType,
    name: row.name,
    tax_id: row.taxId === null ? null : maskDocument(row.taxId),
    created_at: iso(row.createdAt),
  };
}
