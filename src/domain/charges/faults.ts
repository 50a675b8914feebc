/**
 * Sandbox provider faults (extensions.md `provider_faults`): the next `count` sandbox charge
 * creations of an account meet a provider that rejects (`reject`) or cannot be reached
 * (`unavailable`). Consumed one per creation in its own short transaction.
 */
import type { Statement } from "bun:sqlite";
import { eq } from "drizzle-orm";
import { sandboxProviderFaults } from "../../../db/schema";
import { tx } from "../../db/client";
import type { Deps } from "../../deps";

export type FaultMode = "reject" | "unavailable";

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

/** Takes one pending fault of the account, or null when none is left. */
export function consumeProviderFault(deps: Deps, accountId: string): FaultMode | null {
  let st = quickStatements.get(deps.db.$client);
  if (!st) quickStatements.set(deps.db.$client, (st = deps.db.$client.prepare("select remaining from sandbox_provider_faults where account_id = ?")));
  const quick = st.get(accountId) as { remaining: number } | null;
  if (!quick || quick.remaining <= 0) return null;
  return tx(deps.db, (t) => {
    const row = t.select().from(sandboxProviderFaults).where(eq(sandboxProviderFaults.accountId, accountId)).get();
    if (!row || row.remaining <= 0) return null;
    if (row.remaining === 1) t.delete(sandboxProviderFaults).where(eq(sandboxProviderFaults.accountId, accountId)).run();
    else t.update(sandboxProviderFaults).set({ remaining: row.remaining - 1 }).where(eq(sandboxProviderFaults.accountId, accountId)).run();
    return row.mode as FaultMode;
  });
}
