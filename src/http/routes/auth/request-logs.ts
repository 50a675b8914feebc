/** GET /v1/request-logs: the account's apikey request log (bearer; any member). */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps";
import { listRequestLogs } from "../../../domain/audit/request-log";
import { bearerAuth } from "../../plugins/bearer-auth";
import { invalidParam } from "../../errors";

function intParam(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw invalidParam(name, `Must be an integer between ${min} and ${max}.`);
  return Number(raw);
}

export function requestLogRoutes(deps: Deps) {
  return new Elysia().use(bearerAuth(deps)).get(
    "/v1/request-logs",
    async ({ session, query }) => {
      // Let hooks of responses already sent (which queue log rows) run before reading.
      await new Promise((r) => setImmediate(r));
      const fingerprint = query.fingerprint;
      if (fingerprint !== undefined && !/^[0-9a-f]{64}$/.test(fingerprint))
        throw invalidParam("fingerprint", "Must be a key fingerprint (64 lowercase hex characters).");
      if (query.starting_after !== undefined && query.starting_after === "") throw invalidParam("starting_after", "Must not be empty.", "invalid_cursor");
      return listRequestLogs(deps.db, session.accountId, {
        limit: intParam("limit", query.limit, 1, 100) ?? 25,
        startingAfter: query.starting_after,
        status: intParam("status", query.status, 100, 599),
        fingerprint,
      });
    },
    {
      query: t.Object({
        limit: t.Optional(t.String()),
        starting_after: t.Optional(t.String()),
        status: t.Optional(t.String()),
        fingerprint: t.Optional(t.String()),
      }),
      detail: {
        tags: ["account"],
        security: [{ bearer: [] }],
        summary: "Request log of apikey calls, newest first",
        description:
          "Query: `limit` (1-100, default 25), `starting_after` (an entry id, usually the previous `next_cursor`), `status` (HTTP status), `fingerprint` (key fingerprint). Response `{object: \"list\", data, has_more, next_cursor}`; each entry `{id, created_at, method, path, status, request_id, key_fingerprint, mode, duration_ms}`.",
      },
    },
  );
}
