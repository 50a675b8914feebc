/**
 * stripe-sim list answers: `{object: "list", data, has_more, url}` over documents already sorted
 * newest first, with `limit` (1-100, default 10), `starting_after` (older than that id) and
 * `ending_before` (newer than that id), as Stripe's cursor pagination.
 */
import type Stripe from "stripe";
import type { ApiCtx } from "./core";
import { invalid } from "./errors";

export function listPage<T extends { id: string }>(ctx: ApiCtx, docs: T[], url: string): Stripe.ApiList<T> {
  const f = ctx.form;
  const limit = f.int("limit") ?? 10;
  if (limit < 1 || limit > 100)
    throw invalid("limit", "This value must be greater than or equal to 1 and less than or equal to 100.");
  const after = f.str("starting_after");
  const before = f.str("ending_before");
  let slice = docs;
  if (after !== undefined) {
    const i = docs.findIndex((d) => d.id === after);
    if (i < 0) throw invalid("starting_after", `No such object: '${after}'`, "resource_missing");
    slice = docs.slice(i + 1);
  } else if (before !== undefined) {
    const i = docs.findIndex((d) => d.id === before);
    if (i < 0) throw invalid("ending_before", `No such object: '${before}'`, "resource_missing");
    slice = docs.slice(0, i);
    const data = slice.slice(Math.max(0, slice.length - limit));
    return { object: "list", data, has_more: slice.length > limit, url };
  }
  return { object: "list", data: slice.slice(0, limit), has_more: slice.length > limit, url };
}
