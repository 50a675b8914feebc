/**
 * One value per query parameter. Elysia's `query` keeps the last of a repeated parameter
 * (`?status=PAID&status=REFUSED` -> `REFUSED`), silently ignoring a filter; list routes read
 * their query through `singleQuery` instead, which refuses the repeat (interface.md: filters are
 * never ignored silently). Throws 400 `invalid_request` naming the parameter.
 */
import { invalidParam } from "./errors";

export function singleQuery(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(request.url).searchParams) {
    if (k in out) throw invalidParam(k, `${k} may be given once.`);
    out[k] = v;
  }
  return out;
}
