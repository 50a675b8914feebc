/**
 * stripe-sim `expand[]`: each dotted path (`latest_charge.balance_transaction`) replaces an id
 * field by the stored object of the same account, level by level; a path naming a field that is
 * not an expandable id answers 400 like Stripe ("This property cannot be expanded").
 */
import type { SimEnv } from "./core";
import { invalid } from "./errors";

const EXPANDABLE = new Set([
  "payment_intent",
  "latest_charge",
  "balance_transaction",
  "charge",
  "refunds",
  "failure_balance_transaction",
]);

function expandOne(env: SimEnv, account: string, doc: Record<string, unknown>, path: string[], full: string): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (!EXPANDABLE.has(head) || !(head in doc)) throw invalid("expand", `This property cannot be expanded (${full}).`);
  let value = doc[head];
  if (typeof value === "string") {
    const row = env.store.row(value);
    if (!row || row.account !== account) return;
    value = JSON.parse(row.doc) as Record<string, unknown>;
    doc[head] = value;
  }
  if (value && typeof value === "object" && rest.length > 0)
    expandOne(env, account, value as Record<string, unknown>, rest, full);
}

/** Applies `paths` to a copy of `doc` and returns it. */
export function expand<T>(env: SimEnv, account: string, doc: T, paths: string[]): T {
  if (paths.length === 0) return doc;
  const copy = structuredClone(doc) as Record<string, unknown>;
  for (const p of paths) expandOne(env, account, copy, p.split("."), p);
  return copy as T;
}
