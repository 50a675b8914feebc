/** What the ledger's public entry points accept: the unit of work a posting joins, and where reads go. */
import type { Repos, Uow } from "../../store/port";

/** The unit of work a posting joins (`uow` of `deps.store.tx`). */
export type LedgerUnit = Uow;
/**
 * Where ledger reads go: `deps.store.read` outside a unit, the `uow` inside one. With `payouts`
 * (the store's reader has it), verifyLedger also checks payouts in flight against the ledger.
 */
export type LedgerReader = Pick<Repos, "ledger"> & Partial<Pick<Repos, "payouts">>;
