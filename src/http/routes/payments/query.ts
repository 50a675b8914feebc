/**
 * Strict query-string parsing for the payments group: integers are digits only (no "1e3", no
 * "+5"), enums are exact, dates are ISO 8601; anything else is a 400 naming the parameter.
 * Unknown parameters are rejected too: a filter is never ignored silently.
 */
import { invalidParam } from "../../errors";

/** Throws 400 when `query` carries a key outside `allowed`. */
export function onlyKnown(query: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of Object.keys(query))
    if (!allowed.includes(k)) throw invalidParam(k, `Unknown query parameter ${k}; accepted: ${allowed.join(", ")}.`);
}

/** Integer in [min, max] from a query value, `dflt` when absent. */
export function intParam(query: Record<string, unknown>, name: string, dflt: number, min: number, max: number): number {
  const raw = query[name];
  if (raw === undefined) return dflt;
  if (typeof raw !== "string" || !/^\d{1,9}$/.test(raw))
    throw invalidParam(name, `${name} must be an integer between ${min} and ${max}.`);
  const n = Number(raw);
  if (n < min || n > max) throw invalidParam(name, `${name} must be an integer between ${min} and ${max}.`);
  return n;
}

/** One of `values`, or undefined when absent. */
export function enumParam<T extends string>(
  query: Record<string, unknown>,
  name: string,
  values: readonly T[],
): T | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== "string" || !values.includes(raw as T))
    throw invalidParam(name, `${name} must be one of ${values.join(", ")}.`);
  return raw as T;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Epoch ms of an ISO 8601 date or date-time. A bare date is a whole UTC day: its first
 * millisecond (`edge` "start") or its last (`edge` "end"), so `endDate=2026-11-20` includes that day.
 */
export function dateParam(query: Record<string, unknown>, name: string, edge: "start" | "end"): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw === "string" && ISO_DATE.test(raw)) {
    const ms = Date.parse(`${raw}T00:00:00.000Z`);
    if (!Number.isNaN(ms) && new Date(ms).toISOString().startsWith(raw))
      return edge === "start" ? ms : ms + 86_400_000 - 1;
  }
  if (typeof raw === "string" && ISO_DATETIME.test(raw)) {
    const ms = Date.parse(raw);
    if (!Number.isNaN(ms)) return ms;
  }
  throw invalidParam(name, `${name} must be an ISO 8601 date or date-time (e.g. 2026-11-20 or 2026-11-20T12:00:00Z).`);
}
