/**
 * Sandbox provider faults (extensions.md `provider_faults`): the next `count` sandbox charge
 * creations of an account meet a provider that rejects (`reject`) or cannot be reached
 * (`unavailable`). Stored here; consumed one per creation, in its own short transaction, by the
 * sandbox provider through the SandboxFaultStore it receives (src/providers/sandbox).
 */
import type { Statement } from "bun:sqlite";
import { eq } from "drizzle-orm";
import { sandboxProviderFaults } from "../../../db/schema";
import { tx } from "../../db/client";
import type { Db } from "../../db/client";
import type { Deps } from "../../deps";
import type { FaultMode, SandboxFaultStore } from "../../providers/types";

/** Replaces the account's pending faults; returns `{mode, remaining}`. */
export function setProviderFaults(deps: Deps, accountId: string, mode: FaultMode, count: number): { mode: FaultMode; remaining: number } {
  const now = deps.clock.nowMs();
  deps.db
    .insert(sandboxProviderFaults)
    .values({ accountId, mode, remaining: count, updatedAt: now })
    .onConflictDoUpdate({ target: sandboxProviderFaults.accountId, set: { mode, remaining: count, updatedAt: now } })
    .run();
  return { mode, remaining: count };
}

const quickStatements = new WeakMap<object, Statement>();

/** The sandbox provider's fault storage over `db` (createDeps hands it to the sandbox). */
export function sandboxFaultStore(db: Db): SandboxFaultStore {
  return { take: (accountId) => consumeProviderFault(db, accountId) };
}

/**
 * Takes one pending fault of the account, or null when none is left. Create hot path: one cached
 * prepared read when the account has no fault (the usual case), a transaction only when it has.
 */
function consumeProviderFault(db: Db, accountId: string): FaultMode | null {
  let st = quickStatements.get(db.$client);
  if (!st) quickStatements.set(db.$client, (st = db.$client.prepare("select remaining from sandbox_provider_faults where account_id = ?")));
  const quick = st.get(accountId) as { remaining: number } | null;
  if (!quick || quick.remaining <= 0) return null;
  return tx(db, (t) => {
    const row = t.select().from(sandboxProviderFaults).where(eq(sandboxProviderFaults.accountId, accountId)).get();
    if (!row || row.remaining <= 0) return null;
    if (row.remaining === 1) t.delete(sandboxProviderFaults).where(eq(sandboxProviderFaults.accountId, accountId)).run();
    else t.update(sandboxProviderFaults).set({ remaining: row.remaining - 1 }).where(eq(sandboxProviderFaults.accountId, accountId)).run();
    return row.mode as FaultMode;
  });
}
