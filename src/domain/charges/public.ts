/**
 * Reads behind the public (unauthenticated) URLs: checkout page, QR PNG, boleto PDF, sandbox
 * checkout actions and the Pix location (interface.md "Checkout"). The capability is the
 * unguessable raw id (32 hex) or txid itself; callers check its shape first.
 */
import type { Deps } from "../../deps";
import type { TransactionRow } from "../../providers/types";

/** The transaction whose raw id (no `ch_` prefix) is `rawId`, in any account and mode. */
export function chargeByRawId(deps: Pick<Deps, "store">, rawId: string): Promise<TransactionRow | undefined> {
  return deps.store.read.charges.byId(rawId);
}

/** The Pix charge whose txid (26-35 alphanumerics, BCB Pix API `cob`) is `txid`. */
export function chargeByTxid(deps: Pick<Deps, "store">, txid: string): Promise<TransactionRow | undefined> {
  return deps.store.read.charges.byTxid(txid);
}

/** The merchant name a payer sees for `accountId` (its account name; "Cofre" when gone). */
export async function merchantNameOf(deps: Pick<Deps, "store">, accountId: string): Promise<string> {
  return (await deps.store.read.charges.merchantName(accountId)) ?? "Cofre";
}
