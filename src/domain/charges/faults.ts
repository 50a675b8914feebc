/**
 * Sandbox provider faults (extensions.md `provider_faults`): the next `count` sandbox charge
 * creations of an account meet a provider that rejects (`reject`) or cannot be reached
 * (`unavailable`). Stored through the charges repository; consumed one per creation, in its own
 * short unit of work, by the sandbox provider through the SandboxFaultStore it receives
 * (src/providers/sandbox).
 */
import type { Deps } from "../deps";
import type { FaultMode, SandboxFaultStore } from "../providers/types";
import type { Store } from "../../store/port";

/** Replaces the account's pending faults (one unit of work); returns `{mode, remaining}`. */
export async function setProviderFaults(
  deps: Deps,
  accountId: string,
  mode: FaultMode,
  count: number,
): Promise<{ mode: FaultMode; remaining: number }> {
  const now = deps.clock.nowMs();
  await deps.store.tx((uow) => uow.charges.setFaults(accountId, mode, count, now));
  return { mode, remaining: count };
}

/**
 * The sandbox provider's fault storage over the store `store()` returns (createDeps builds the
 * provider before the store, so it is fetched at the first call). Create hot path: one prepared
 * read when the account has no fault (the usual case), a unit of work only when it has.
 */
export function sandboxFaultStore(store: () => Store): SandboxFaultStore {
  return {
    take(accountId) {
      const s = store();
      return s.read.charges
        .faultsLeft(accountId)
        .then((left) =>
          left <= 0 ? null : (s.tx((uow) => uow.charges.takeFault(accountId)) as Promise<FaultMode | null>),
        );
    },
  };
}
