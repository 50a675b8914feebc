/** GET /v1/request-logs: the account's apikey request log (bearer; any member). */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { listRequestLogs } from "../../../domain/audit/request-log";
import { bearerAuth } from "../../plugins/bearer-auth";
import { invalidParam } from "../../errors";
import { DateTime, Nullable, Type, View } from "../../../lib/view-schema";
import { op } from "../../openapi";

/** One entry of the request log. */
const RequestLogSchema = View("RequestLogEntry", {
  id: Type.String(),
  created_at: DateTime(),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  request_id: Type.String(),
  key_fingerprint: Type.String({
    pattern: "^[0-9a-f]{64}$",
    examples: ["9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"],
  }),
  mode: Type.Union([Type.Literal("test"), Type.Literal("live")]),
  duration_ms: Type.Number({ description: "Milliseconds." }),
});
const RequestLogListSchema = View("RequestLogList", {
  object: Type.Literal("list"),
  data: Type.Array(RequestLogSchema),
  has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String()),
});

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
      if (query.starting_after !== undefined && query.starting_after === "")
        throw invalidParam("starting_after", "Must not be empty.", "invalid_cursor");
      return listRequestLogs(deps, session.accountId, {
        limit: intParam("limit", query.limit, 1, 100) ?? 25,
        startingAfter: query.starting_after,
        status: intParam("status", query.status, 100, 599),
        fingerprint,
      });
    },
    {
      query: t.Object({
        limit: t.Optional(t.String({ description: "1-100, default 25." })),
        starting_after: t.Optional(t.String({ description: "An entry id (the previous `next_cursor`)." })),
        status: t.Optional(t.String({ description: "HTTP status (100-599)." })),
        fingerprint: t.Optional(t.String({ description: "Key fingerprint (64 lowercase hex)." })),
      }),
      detail: op({
        tags: ["account"],
        security: "bearer",
        ok: { 200: RequestLogListSchema },
        errors: [400, 401],
        summary: "Request log of apikey calls, newest first",
        description:
          'Query: `limit` (1-100, default 25), `starting_after` (an entry id, usually the previous `next_cursor`), `status` (HTTP status), `fingerprint` (key fingerprint). Response `{object: "list", data, has_more, next_cursor}`; each entry `{id, created_at, method, path, status, request_id, key_fingerprint, mode, duration_ms}`.',
      }),
    },
  );
}
