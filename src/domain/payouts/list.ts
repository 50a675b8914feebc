/**
 * GET /v1/payouts (extensions.md "Payouts (money out)"): the cursor list as charges have it
 * (`limit` 1-100 default 25, `starting_after` a `po_` id of the caller's, `status`,
 * `created_after`, `created_before` ISO 8601, inclusive) -> `{object: "list", data, has_more,
 * next_cursor}`, newest first. Unknown parameters (`page`, `offset` included) or bad values -> 400.
 */
import type { Deps } from "../deps";
import { invalidParam } from "../errors";
import type { Scope } from "../scope";
import { PAYOUT_STATUSES, type PayoutStatus } from "./model";
import { toPayout } from "./views";

const PARAMS = new Set(["limit", "starting_after", "status", "created_after", "created_before"]);

/** Epoch ms of an ISO 8601 timestamp; a bare date is its whole UTC day (first ms after, last ms before). */
function parseDate(param: string, value: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw invalidParam(param, `${param} must be an ISO 8601 timestamp.`);
  if (param === "created_before" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return ms + 86_400_000 - 1;
  return ms;
}

/** The page of the caller's payouts `query` asks for (module header). */
export async function listPayouts(deps: Deps, scope: Scope, query: Record<string, string | undefined>) {
  for (const k of Object.keys(query)) {
    if (k === "page" || k === "offset")
      throw invalidParam(k, `${k} is not accepted; paginate with starting_after (cursor).`);
    if (!PARAMS.has(k)) throw invalidParam(k, `Unknown query parameter ${k}.`);
  }
  let limit = 25;
  if (query.limit !== undefined) {
    if (!/^\d{1,3}$/.test(query.limit) || Number(query.limit) < 1 || Number(query.limit) > 100)
      throw invalidParam("limit", "limit must be an integer from 1 to 100.");
    limit = Number(query.limit);
  }
  if (query.status !== undefined && !PAYOUT_STATUSES.includes(query.status as PayoutStatus))
    throw invalidParam("status", `status must be one of ${PAYOUT_STATUSES.join(", ")}.`);
  let after;
  if (query.starting_after !== undefined) {
    after = await deps.store.read.payouts.byIdScoped(scope.accountId, scope.livemode, query.starting_after);
    if (!after)
      throw invalidParam(
        "starting_after",
        "starting_after must be the id (po_...) of one of your payouts.",
        "invalid_cursor",
      );
  }
  const rows = await deps.store.read.payouts.list({
    accountId: scope.accountId,
    livemode: scope.livemode,
    limit,
    after,
    status: query.status,
    createdFromMs: query.created_after !== undefined ? parseDate("created_after", query.created_after) : undefined,
    createdToMs: query.created_before !== undefined ? parseDate("created_before", query.created_before) : undefined,
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    object: "list" as const,
    data: page.map(toPayout),
    has_more: hasMore,
    next_cursor: hasMore ? page[page.length - 1]!.id : null,
  };
}
