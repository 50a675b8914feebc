/**
 * Reads behind the public (unauthenticated) URLs: checkout page, QR PNG, boleto PDF, sandbox
 * checkout actions and the Pix location (interface.md "Checkout"). The capability is the
 * unguessable raw id (32 hex) or txid itself; callers check its shape first.
 */
import type { Deps } from "../deps";
import type { TransactionRow } from "../providers/types";
import { displayNameOf } from "../accounts/profile";
import { maskTaxId, taxIdLabel } from "../payments/pdf/format";

/** The transaction whose raw id (no `ch_` prefix) is `rawId`, in any account and mode. */
export function chargeByRawId(deps: Pick<Deps, "store">, rawId: string): Promise<TransactionRow | undefined> {
  return deps.store.read.charges.byId(rawId);
}

/** The Pix charge whose txid (26-35 alphanumerics, BCB Pix API `cob`) is `txid`. */
export function chargeByTxid(deps: Pick<Deps, "store">, txid: string): Promise<TransactionRow | undefined> {
  return deps.store.read.charges.byTxid(txid);
}

/**
 * Who the payer is paying, as the checkout page shows it (extensions.md "Merchant profile and a repeatable first run").
 */
export interface CheckoutMerchant {
  /** The trade name, else the account name ("Cofre" when the account is gone). */
  name: string;
  /**
   * `CNPJ 11.222.333/0001-81` (a company's public number, whole) or `CPF ***.982.247-**` (masked as payers expect);
   * null when unset.
   */
  taxIdLine: string | null;
}

/** The merchant block of the checkout page of an `accountId` transaction. */
export async function checkoutMerchantOf(deps: Pick<Deps, "store">, accountId: string): Promise<CheckoutMerchant> {
  const a = await deps.store.read.accounts.byId(accountId);
  if (!a) return { name: "Cofre", taxIdLine: null };
  return { name: displayNameOf(a), taxIdLine: a.taxId ? `${taxIdLabel(a.taxId)} ${maskTaxId(a.taxId)}` : null };
}
