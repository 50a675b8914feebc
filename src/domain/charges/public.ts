/**
 * Reads behind the public (unauthenticated) URLs: checkout page, QR PNG, boleto PDF, sandbox
 * checkout actions and the Pix location (interface.md "Checkout"). The capability is the
 * unguessable raw id (32 hex) or txid itself; callers check its shape first.
 */
import type { Deps } from "../../deps";
import type { TransactionRow } from "../../providers/types";
import { accountName, findById, findByTxid } from "./repo";

/** The transaction whose raw id (no `ch_` prefix) is `rawId`, in any account and mode. */
export function chargeByRawId(deps: Deps, rawId: string): TransactionRow | undefined {
  return findById(deps.db, rawId);
}

/** The Pix charge whose txid (26-35 alphanumerics, BCB Pix API `cob`) is `txid`. */
export function chargeByTxid(deps: Deps, txid: string): TransactionRow | undefined {
  return findByTxid(deps.db, txid);
}

/** The merchant name a payer sees for `accountId` (its account name; "Cofre" when gone). */
export function merchantNameOf(deps: Deps, accountId: string): string {
  return accountName(deps.db, accountId) ?? "Cofre";
}
