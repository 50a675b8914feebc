/**
 * MED case routes (interface.md "MED cases"): `/v1/med/cases` and its alias `/v1/infractions`
 * serve the same handlers; plus the signed evidence upload/view URLs under `/v1/uploads/`.
 * HTTP only: validation of shapes, status codes; the rules live in src/domain/med.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { Type, StrictObject } from "../../schemas";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { acceptCase, appealCase, getCase } from "../../../domain/med/service";
import { listCases, parseCaseListQuery } from "../../../domain/med/list";
import { completeUpload, listEvidence, requestUpload } from "../../../domain/med/evidence";
import {
  MedCaseListSchema,
  MedCaseSchema,
  MedEvidenceListSchema,
  MedEvidenceSchema,
  UploadRequestSchema,
  toPublicCase,
} from "../../../domain/med/views";
import { evidenceUrlRoutes } from "./uploads";
import { AUTH_ERRORS, BODY_ERRORS, op, type Answer, type QueryParam } from "../../openapi";

const AppealBody = StrictObject({ reason: Type.String({ description: "5-2000 characters" }) });
const EvidenceBody = StrictObject({
  file_name: Type.String({ description: "1-255 characters, no slashes or control characters" }),
  file_size: Type.Integer({ description: "Exact size in bytes, 1 to 10485760 (10 MB)" }),
  mime_type: Type.String({ description: "image/png, image/jpeg, image/webp, image/gif or application/pdf" }),
});

/** Routes that take no body (accept, complete): `{}` or nothing; any field is 400 naming it. */
const NoBody = StrictObject({});

const LIST_DOC =
  "Query: `limit` (1-100, default 25), `starting_after` (a med_ id of one of your cases), `status` " +
  "(open, appealed, accepted, rejected, closed), `type` (med, chargeback, dispute, fraud), `charge_id` (ch_...), " +
  "`created_after`, `created_before` (ISO 8601, exclusive). Unknown parameters or values and malformed dates -> 400.";

/** Every MED route group: the canonical path, the alias, and the upload URLs. */
export function medRoutes(deps: Deps) {
  // Upload URLs first: the scoped `apiKeyAuth` of the case groups must not reach them.
  return new Elysia()
    .use(evidenceUrlRoutes(deps))
    .use(caseRoutes(deps, "/v1/med/cases", false))
    .use(caseRoutes(deps, "/v1/infractions", true));
}

/** Name -> every value sent, so repeated parameters can be refused. */
function queryOf(request: Request): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [k, v] of new URL(request.url).searchParams) map.set(k, [...(map.get(k) ?? []), v]);
  return map;
}

const LIST_QUERY: QueryParam[] = [
  { name: "limit", description: "1-100, default 25.", schema: { type: "integer", minimum: 1, maximum: 100 } },
  { name: "starting_after", description: "A med_ id of one of your cases." },
  { name: "status", description: "open, appealed, accepted, rejected, closed." },
  { name: "type", description: "med, chargeback, dispute, fraud." },
  { name: "charge_id", description: "A ch_ id." },
  { name: "created_after", description: "ISO 8601, exclusive." },
  { name: "created_before", description: "ISO 8601, exclusive." },
];

function caseRoutes(deps: Deps, prefix: string, alias: boolean) {
  /** `errors` beyond the apikey ones; `body`: the route takes a JSON body. */
  const doc = (
    summary: string,
    ok: Record<number, Answer>,
    errors: number[],
    extra: { description?: string; body?: unknown; query?: QueryParam[] } = {},
  ) => ({
    detail: op({
      tags: ["med"],
      summary: alias ? `${summary} (alias of /v1/med/cases)` : summary,
      ...(extra.description ? { description: extra.description } : {}),
      security: "apikey",
      ok,
      errors: [...AUTH_ERRORS.apikey, ...errors, ...(extra.body !== undefined ? BODY_ERRORS : [])],
      ...(extra.body !== undefined && extra.body !== null ? { requestExample: extra.body } : {}),
      ...(extra.query ? { query: extra.query } : {}),
    }),
  });
  return new Elysia({ prefix })
    .use(apiKeyAuth(deps))
    .get(
      "",
      ({ auth, request }) => listCases(deps, auth, parseCaseListQuery(queryOf(request))),
      doc("List MED cases (cursor pagination, newest first)", { 200: MedCaseListSchema }, [400], {
        description: LIST_DOC,
        query: LIST_QUERY,
      }),
    )
    .get(
      "/:id",
      async ({ auth, params }) => toPublicCase(await getCase(deps, auth, params.id)),
      doc("Retrieve a MED case", { 200: MedCaseSchema }, [404]),
    )
    .post(
      "/:id/appeal",
      async ({ auth, params, body }) => toPublicCase(await appealCase(deps, auth, params.id, body.reason)),
      {
        body: AppealBody,
        ...doc("Appeal an open MED case", { 200: MedCaseSchema }, [404], {
          body: { reason: "The customer received the goods; tracking code attached as evidence." },
        }),
      },
    )
    .post("/:id/accept", async ({ auth, params }) => toPublicCase(await acceptCase(deps, auth, params.id)), {
      body: NoBody,
      ...doc("Accept an open MED case (final, money_outcome lost)", { 200: MedCaseSchema }, [404], {
        description: "No body (a field sent is 400).",
        body: null,
      }),
    })
    .get(
      "/:id/evidence",
      ({ auth, params }) => listEvidence(deps, auth, params.id),
      doc("List confirmed evidence, newest first", { 200: MedEvidenceListSchema }, [404]),
    )
    .post(
      "/:id/evidence",
      async ({ auth, params, body, set }) => {
        const out = await requestUpload(deps, auth, params.id, body);
        set.status = 201;
        return out;
      },
      {
        body: EvidenceBody,
        ...doc("Evidence step 1: request a signed upload URL", { 201: UploadRequestSchema }, [404, 503], {
          body: { file_name: "tracking.pdf", file_size: 48213, mime_type: "application/pdf" },
        }),
      },
    )
    .post(
      "/:id/evidence/:evidence_id/complete",
      ({ auth, params }) => completeUpload(deps, auth, params.id, params.evidence_id),
      {
        body: NoBody,
        ...doc("Evidence step 3: confirm the uploaded file", { 200: MedEvidenceSchema }, [404, 409, 503], {
          description: "No body (a field sent is 400).",
          body: null,
        }),
      },
    );
}
