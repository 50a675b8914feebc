/**
 * The events API (extensions.md "Events API and `cofre listen`"): canonical events (`charge.*`,
 * `payout.*`, `charge.refunded`) of the caller's account and mode, kept 30 days whether or not an
 * endpoint subscribed, listed newest first with a cursor, and read one by one exactly as delivered.
 * `pruneEvents` is the retention (an hourly job, ./jobs.ts).
 */
import type { Deps } from "../deps";
import { invalidParam, notFound } from "../errors";
import type { Scope } from "../scope";
import type { EventListQuery } from "../../store/port/events";
import { EVENT_CATALOG } from "./catalog";
import { toPublicEvent, type EventList, type PublicEvent } from "./views";

/** How long an event stays readable (ms): 30 days. */
export const EVENT_RETENTION_MS = 30 * 86_400_000;

const LIST_PARAMS = new Set(["type", "created_after", "created_before", "limit", "starting_after"]);

/** Canonical names (the only ones the API serves) and their families (`charge.*`, `payout.*`). */
function canonicalNames(): string[] {
  return EVENT_CATALOG.filter((e) => !e.legacy && (e.event.startsWith("charge.") || e.event.startsWith("payout."))).map(
    (e) => e.event,
  );
}

/** `type` of GET /v1/events: comma-separated names or families (`charge.*`). */
function parseTypes(raw: string): { types: string[]; typePrefixes: string[] } {
  const names = canonicalNames();
  const families = new Set(names.map((n) => `${n.slice(0, n.indexOf("."))}.*`));
  const types: string[] = [];
  const typePrefixes: string[] = [];
  for (const part of raw.split(",").map((s) => s.trim())) {
    if (families.has(part)) typePrefixes.push(part.slice(0, -1));
    else if (names.includes(part)) types.push(part);
    else
      throw invalidParam(
        "type",
        `type must be a canonical event name (${names.join(", ")}) or a family (${[...families].join(", ")}), comma-separated.`,
        "invalid_event_type",
      );
  }
  return { types, typePrefixes };
}

/** An ISO 8601 timestamp -> epoch ms (400 `invalid_request` otherwise). */
function parseTime(param: string, value: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms))
    throw invalidParam(param, `${param} must be an ISO 8601 timestamp (e.g. 2026-11-20T12:00:00Z).`);
  return ms;
}

/**
 * GET /v1/events: `{object: "list", data, has_more, next_cursor}`, newest first by `created_at`
 * (then id). `type` a name or family (comma-separated), `created_after`/`created_before` ISO 8601
 * (exclusive), `limit` 1-100 (default 25), `starting_after` an `evt_` id of the scope (its page
 * continues with older events). Only the last 30 days. Unknown parameters or bad values -> 400.
 */
export async function listEvents(
  deps: Deps,
  scope: Scope,
  query: Record<string, string | undefined>,
): Promise<EventList> {
  for (const k of Object.keys(query)) if (!LIST_PARAMS.has(k)) throw invalidParam(k, `Unknown query parameter ${k}.`);
  let limit = 25;
  if (query.limit !== undefined) {
    if (!/^\d{1,3}$/.test(query.limit) || Number(query.limit) < 1 || Number(query.limit) > 100)
      throw invalidParam("limit", "limit must be an integer from 1 to 100.");
    limit = Number(query.limit);
  }
  const q: EventListQuery = { accountId: scope.accountId, livemode: scope.livemode, limit: limit + 1 };
  if (query.type !== undefined) Object.assign(q, parseTypes(query.type));
  const oldest = deps.clock.nowMs() - EVENT_RETENTION_MS;
  q.createdAfterMs = Math.max(
    oldest - 1,
    query.created_after !== undefined ? parseTime("created_after", query.created_after) : -Infinity,
  );
  if (query.created_before !== undefined) q.createdBeforeMs = parseTime("created_before", query.created_before);
  if (query.starting_after !== undefined) {
    const row = query.starting_after.startsWith("evt_")
      ? await deps.store.read.events.byScopedId(scope.accountId, scope.livemode, query.starting_after)
      : undefined;
    if (!row)
      throw invalidParam(
        "starting_after",
        "starting_after must be the id (evt_...) of one of your events.",
        "invalid_cursor",
      );
    q.after = { createdAt: row.createdAt, id: row.id };
  }
  const rows = await deps.store.read.events.list(q);
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    object: "list",
    data: page.map((r) => toPublicEvent(r.body)),
    has_more: hasMore,
    next_cursor: hasMore ? page[page.length - 1]!.id : null,
  };
}

/** GET /v1/events/{id}: the event exactly as delivered; 404 when unknown, another scope's or older than 30 days. */
export async function getEvent(deps: Deps, scope: Scope, id: string): Promise<PublicEvent> {
  const row = await deps.store.read.events.byScopedId(scope.accountId, scope.livemode, id);
  if (!row || row.createdAt < deps.clock.nowMs() - EVENT_RETENTION_MS) throw notFound("event");
  return toPublicEvent(row.body);
}

/** Batch size of one prune unit of work (rows). */
const PRUNE_BATCH = 1000;

/**
 * Deletes events older than 30 days (by the clock) that no webhook delivery refers to, in units of
 * at most 1000 rows; returns how many. Deliveries keep their event's body (their `payload`).
 */
export async function pruneEvents(deps: Deps): Promise<number> {
  const cutoff = deps.clock.nowMs() - EVENT_RETENTION_MS;
  let total = 0;
  for (;;) {
    const n = await deps.store.tx((uow) => uow.events.pruneOlderThan(cutoff, PRUNE_BATCH));
    total += n;
    if (n < PRUNE_BATCH) return total;
  }
}
