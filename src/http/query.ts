/**
 * One value per query parameter. Elysia's `query` keeps the last of a repeated parameter
 * (`?status=PAID&status=REFUSED` -> `REFUSED`), silently ignoring a filter; list routes read
 * their query through `singleQuery` instead, which refuses the repeat (interface.md: filters are
 * never ignored silently). Throws 400 `invalid_request` naming the parameter. The result has a
 * null prototype, so `name in q` and `q[name]` see only what the caller sent.
 */
import { invalidParam } from "./errors";

export function singleQuery(request: Request): Record<string, string> {
  // No prototype: `?constructor=x` is a parameter like any other, and `q.toString` of a query
  // without it is undefined (input never reaches Object.prototype's members).
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of new URL(request.url).searchParams) {
    if (Object.hasOwn(out, k)) throw invalidParam(k, `${k} may be given once.`);
    out[k] = v;
  }
  return out;
}
