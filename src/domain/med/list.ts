/**
 * MED case listing (interface.md "MED cases" list query): validation of every query value
 * (an unknown value, a repeated or unknown parameter, or a malformed date is a 400, never
 * ignored) and cursor pagination newest first by `created_at` (ties by id).
 */
import type { Deps } from "../deps";
import { DomainError, invalidParam } from "../errors";
import { stripPrefix } from "../../lib/ids";
import { MED_CASE_STATUSES, MED_CASE_TYPES, type MedCaseStatus, type MedCaseType } from "./model";
import type { Scope } from "../scope";
import { toPublicCase } from "./views";

const KNOWN = new Set(["limit", "starting_after", "status", "type", "charge_id", "created_after", "created_before"]);
/** ISO 8601: a date, or a date-time with seconds optional, fraction optional and a zone (Z or ±hh:mm). */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

export interface CaseListQuery {
  limit: number;
  startingAfter?: string;
  status?: MedCaseStatus;
  type?: MedCaseType;
  chargeId?: string;
  createdAfter?: number;
  createdBefore?: number;
}

/** Validates the raw query (name -> every value sent). Throws 400 `invalid_request` naming the parameter. */
export function parseCaseListQuery(params: Map<string, string[]>): CaseListQuery {
  const q: CaseListQuery = { limit: 25 };
  for (const [name, values] of params) {
    if (!KNOWN.has(name)) throw invalidParam(name, `Unknown query parameter ${name}.`);
    if (values.length !== 1) throw invalidParam(name, `${name} may be sent only once.`);
    const v = values[0]!;
    switch (name) {
      case "limit":
        if (!/^\d{1,3}$/.test(v) || Number(v) < 1 || Number(v) > 100)
          throw invalidParam("limit", "limit must be an integer from 1 to 100.");
        q.limit = Number(v);
        break;
      case "starting_after":
        if (!/^med_[0-9a-f]{32}$/.test(v))
          throw invalidParam(
            "starting_after",
            "starting_after must be the id of one of your MED cases.",
            "invalid_cursor",
          );
        q.startingAfter = v;
        break;
      case "status":
        if (!(MED_CASE_STATUSES as readonly string[]).includes(v))
          throw invalidParam("status", `status must be one of ${MED_CASE_STATUSES.join(", ")}.`);
        q.status = v as MedCaseStatus;
        break;
      case "type":
        if (!(MED_CASE_TYPES as readonly string[]).includes(v))
          throw invalidParam("type", `type must be one of ${MED_CASE_TYPES.join(", ")}.`);
        q.type = v as MedCaseType;
        break;
      case "charge_id":
        if (!/^ch_[0-9A-Za-z]{1,64}$/.test(v)) throw invalidParam("charge_id", "charge_id must be a ch_ id.");
        q.chargeId = v;
        break;
      case "created_after":
      case "created_before": {
        const ms = parseIsoDate(v);
        if (ms === null) throw invalidParam(name, `${name} must be an ISO 8601 date or date-time with a time zone.`);
        if (name === "created_after") q.createdAfter = ms;
        else q.createdBefore = ms;
        break;
      }
    }
  }
  return q;
}

/** Epoch ms of a strict ISO 8601 value, or null (wrong shape or impossible date such as 2026-02-30). */
export function parseIsoDate(v: string): number | null {
  const m = ISO.exec(v);
  if (!m) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00"] = m;
  if (+mo! < 1 || +mo! > 12 || +d! < 1 || +h > 23 || +mi > 59 || +s > 59) return null;
  const days = new Date(Date.UTC(+y!, +mo!, 0)).getUTCDate();
  if (+d! > days) return null;
  const ms = Date.parse(m[4] ? v : `${v}T00:00:00Z`);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * One page of the caller's cases. `starting_after` must name one of the caller's cases (same
 * account and mode), else 400 `invalid_cursor`. Returns the list object.
 */
export async function listCases(deps: Deps, scope: Scope, q: CaseListQuery) {
  let after: { createdAt: number; id: string } | undefined;
  if (q.startingAfter) {
    const c = await deps.store.read.med.caseInScope(scope, q.startingAfter);
    if (!c)
      throw new DomainError("invalid_cursor", "starting_after must be the id of one of your MED cases.", {
        param: "starting_after",
      });
    after = { createdAt: c.createdAt, id: c.id };
  }
  const rows = await deps.store.read.med.listCases(scope, {
    status: q.status,
    type: q.type,
    transactionId: q.chargeId ? stripPrefix(q.chargeId, "ch_") : undefined,
    createdAfter: q.createdAfter,
    createdBefore: q.createdBefore,
    after,
    limit: q.limit,
  });
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  return {
    object: "list" as const,
    data: page.map(toPublicCase),
    has_more: hasMore,
    next_cursor: hasMore ? page[page.length - 1]!.id : null,
  };
}
