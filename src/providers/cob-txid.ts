/** The txid a provider gives a new charge's cob (shared by the sandbox and live Pix providers). */
import { newTxid } from "../pix/ids";
import type { TransactionRow } from "../domain/providers/types";

/** A fresh time-ordered txid (src/pix/ids.ts `newTxid`) that never equals the transaction's own id. */
export function cobTxidFor(tx: Pick<TransactionRow, "id" | "createdAt">): string {
  let txid = newTxid(tx.createdAt);
  while (txid === tx.id) txid = newTxid(tx.createdAt);
  return txid;
}
