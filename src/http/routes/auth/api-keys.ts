/** /v1/api-keys: issue, list, rotate, revoke (interface.md "API keys"; dashboard bearer token only). */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { issueKey, LABEL_MAX, listKeys, revokeKey, rotateKey } from "../../../domain/api-keys/service";
import { bearerAuth } from "../../plugins/bearer-auth";
import { Str, StrictBool, StrictObject, Type } from "../../schemas";
import { ApiKeyListSchema, IssuedKeySchema, KeyRevokedSchema } from "../../../domain/api-keys/views";
import { BODY_ERRORS, op } from "../../openapi";

/** The 64-character limit is checked by the service in characters (code points), not UTF-16 units. */
const Label = () => Str({ description: `At most ${LABEL_MAX} characters.` });
const IssueBody = StrictObject({
  label: Type.Optional(Label()),
  test: Type.Optional(StrictBool({ description: "true -> an ak_test_ key; default live." })),
});
const RotateBody = StrictObject({ label: Type.Optional(Label()) });

export function apiKeyRoutes(deps: Deps) {
  const read = new Elysia().use(bearerAuth(deps)).get("/v1/api-keys", ({ session }) => listKeys(deps, session), {
    detail: op({
      tags: ["api-keys"],
      security: "bearer",
      summary: "List the account's active keys (no cleartext) and `access.canManage`",
      ok: { 200: ApiKeyListSchema },
      errors: [401],
    }),
  });
  const manage = new Elysia()
    .use(bearerAuth(deps, { manage: true }))
    .post(
      "/v1/api-keys",
      async ({ session, body, set }) => {
        const view = await issueKey(deps, session, body);
        set.status = 201;
        return view;
      },
      {
        body: IssueBody,
        detail: op({
          tags: ["api-keys"],
          security: "bearer",
          summary: "Issue a key (`test: true` -> ak_test_); the cleartext is returned exactly once",
          ok: { 201: IssuedKeySchema },
          errors: [...BODY_ERRORS, 401, 403],
          requestExample: { label: "backend", test: true },
        }),
      },
    )
    .post(
      "/v1/api-keys/:id/rotate",
      async ({ session, params, body, set }) => {
        const view = await rotateKey(deps, session, params.id, body ?? {});
        set.status = 201;
        return view;
      },
      {
        params: t.Object({ id: t.String() }),
        body: RotateBody,
        detail: op({
          tags: ["api-keys"],
          security: "bearer",
          summary: "Rotate: atomically revoke the key and issue its successor (same mode; same label unless sent)",
          ok: { 201: IssuedKeySchema },
          errors: [...BODY_ERRORS, 401, 403, 404],
          requestExample: { label: "backend" },
        }),
      },
    )
    .delete("/v1/api-keys/:id", ({ session, params }) => revokeKey(deps, session, params.id), {
      params: t.Object({ id: t.String() }),
      detail: op({
        tags: ["api-keys"],
        security: "bearer",
        summary: "Revoke a key permanently: `{revoked: true}`",
        ok: { 200: KeyRevokedSchema },
        errors: [...BODY_ERRORS, 401, 403, 404],
      }),
    });
  return new Elysia().use(read).use(manage);
}
