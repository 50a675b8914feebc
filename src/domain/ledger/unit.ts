/**
 * TRANSITIONAL (issue 16): what the ledger's public entry points accept while the areas that call
 * them (settlement, refunds, wallets, their tests) still pass drizzle handles. A legacy handle
 * type-checks but is refused at run time, synchronously for the money-moving calls, so an
 * unconverted caller's transaction rolls back instead of losing its posting. After the merge:
 * `LedgerUnit = Uow`, `LedgerReader = Pick<Repos, "ledger">`, and tsc names every call site left.
 */
import type { DbOrTx } from "../../db/client";
import type { Repos, Uow } from "../../store/port";
import type { LedgerRepo } from "../../store/port/ledger";

/** The unit of work a posting joins (`uow` of `deps.store.tx`). */
export type LedgerUnit = Uow | DbOrTx;
/** Where ledger reads go: `deps.store.read` outside a unit, the `uow` inside one. */
export type LedgerReader = Pick<Repos, "ledger"> | DbOrTx;

/** `u` as a unit of work; throws (synchronously) for a bare drizzle handle. */
export function unitOf(u: LedgerUnit): Uow {
  if ("ledger" in u && "afterCommit" in u) return u as Uow;
  throw new Error("the ledger posts inside a unit of work: pass the uow of deps.store.tx (storage port, issue 16), not a drizzle transaction");
}

/** The ledger repository of `r`; throws for a bare drizzle handle. */
export function readerOf(r: LedgerReader): LedgerRepo {
  if ("ledger" in r) return (r as Pick<Repos, "ledger">).ledger;
  throw new Error("ledger reads go through the storage port: pass deps.store.read or a uow (issue 16), not deps.db");
}
