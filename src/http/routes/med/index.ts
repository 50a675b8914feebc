/**
 * MED case routes (interface.md "MED cases"): `/v1/med/cases` and its alias `/v1/infractions`
 * serve the same handlers; plus the signed evidence upload/view URLs under `/v1/uploads/`.
 * HTTP only: validation of shapes, status codes; the rules live in src/domain/med.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";
import { Type, StrictObject } from "../../schemas";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { acceptCase, appealCase, getCase } from "../../../domain/med/service";
import { listCases, parseCaseListQuery } from "../../../domain/med/list";
import { completeUpload, listEvidence, requestUpload } from "../../../domain/med/evidence";
import { toPublicCase } from "../../../domain/med/views";
import { evidenceUrlRoutes } from "./uploads";

const AppealBody = StrictObject({ reason: Type.String({ description: "5-2000 characters" }) });
const EvidenceBody = StrictObject({
  file_name: Type.String({ description: "1-255 characters" }),
  file_size: Type.Integer({ description: "Exact size in bytes, at most 10 MB" }),
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

function caseRoutes(deps: Deps, prefix: string, alias: boolean) {
  const doc = (summary: string, description?: string) => ({
    detail: { tags: ["med"], summary: alias ? `${summary} (alias of /v1/med/cases)` : summary, ...(description ? { description } : {}) },
  });
  return new Elysia({ prefix })
    .use(apiKeyAuth(deps))
    .get("", ({ auth, request }) => listCases(deps, auth, parseCaseListQuery(queryOf(request))), doc("List MED cases (cursor pagination, newest first)", LIST_DOC))
    .get("/:id", ({ auth, params }) => toPublicCase(getCase(deps, auth, params.id)), doc("Retrieve a MED case"))
    .post("/:id/appeal", ({ auth, params, body }) => toPublicCase(appealCase(deps, auth, params.id, body.reason)), {
      body: AppealBody,
      ...doc("Appeal an open MED case"),
    })
    .post("/:id/accept", ({ auth, params }) => toPublicCase(acceptCase(deps, auth, params.id)), {
      body: NoBody,
      ...doc("Accept an open MED case (final, money_outcome lost)", "No body (a field sent is 400)."),
    })
    .get("/:id/evidence", ({ auth, params }) => listEvidence(deps, auth, params.id), doc("List confirmed evidence, newest first"))
    .post(
      "/:id/evidence",
      ({ auth, params, body, set }) => {
        const out = requestUpload(deps, auth, params.id, body);
        set.status = 201;
        return out;
      },
      {
        body: EvidenceBody,
        ...doc("Evidence step 1: request a signed upload URL"),
      },
    )
    .post(
      "/:id/evidence/:evidence_id/complete",
      ({ auth, params }) => completeUpload(deps, auth, params.id, params.evidence_id),
      { body: NoBody, ...doc("Evidence step 3: confirm the uploaded file", "No body (a field sent is 400).") },
    );
}
