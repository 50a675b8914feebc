/**
 * GET /v1/account and POST /v1/account/members (bearer; extensions.md "Dashboard authentication"),
 * plus GET /v1/account/members (any member) and GET /v1/account/audit-log (OWNER/ADMIN) for the
 * dashboard's Developers page, and GET /v1/account/pix-provider (any member) for Settings (issue 15).
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { latestAuditEntries } from "../../../domain/audit/audit-log";
import { AuditListSchema, auditEntryView } from "../../../domain/audit/views";
import { addMember, changeMemberRole, getAccount, listMembers, removeMember } from "../../../domain/accounts/service";
import { settingsOf } from "../../../domain/accounts/settings";
import { getAccountConnection } from "../../../domain/pix-provider/service";
import { AccountPixProviderSchema } from "../../../domain/pix-provider/views";
import { getAccountCardConnection } from "../../../domain/card-provider/service";
import { AccountCardProviderSchema } from "../../../domain/card-provider/views";
import { AccountSchema, MemberListSchema, MemberSchema, accountView, memberView } from "../../../domain/accounts/views";
import { bearerAuth } from "../../plugins/bearer-auth";
import { Str, StrictObject } from "../../schemas";
import { BODY_ERRORS, op } from "../../openapi";

const RoleSchema = t.Union([t.Literal("OWNER"), t.Literal("ADMIN"), t.Literal("DEVELOPER"), t.Literal("VIEWER")]);
const RoleBody = StrictObject({ role: RoleSchema });
const MemberParams = t.Object({ id: Str({ minLength: 1, maxLength: 100 }) });

const MemberBody = StrictObject({
  email: Str({ minLength: 1, maxLength: 320 }),
  password: Str({ minLength: 8, maxLength: 256, description: "8-256 characters." }),
  role: RoleSchema,
});

export function accountRoutes(deps: Deps) {
  const read = new Elysia()
    .use(bearerAuth(deps))
    .get(
      "/v1/account",
      async ({ session }) => {
        const account = await getAccount(deps, session.accountId);
        return accountView(account, session.role, settingsOf(account));
      },
      {
        detail: op({
          tags: ["account"],
          security: "bearer",
          summary: "The caller's account: `{id, name, role, settings}`",
          ok: { 200: AccountSchema },
          errors: [401, 404],
        }),
      },
    )
    .get(
      "/v1/account/members",
      async ({ session }) => ({ data: (await listMembers(deps, session.accountId)).map(memberView) }),
      {
        detail: op({
          tags: ["account"],
          security: "bearer",
          summary: "The account's members `{data: [{id, email, role}]}`, oldest first",
          ok: { 200: MemberListSchema },
          errors: [401],
        }),
      },
    )
    .get("/v1/account/pix-provider", ({ session }) => getAccountConnection(deps, session.accountId), {
      detail: op({
        tags: ["account"],
        security: "bearer",
        summary: "The live Pix provider connection's status (any member)",
        description:
          "200 `{type, api_url, pix_key, certificate_expires_at, webhook_registered, updated_at}`; 404 `not_found` when the account has no active connection. Never a secret, the client id or the certificate: the operator routes manage the connection.",
        ok: { 200: AccountPixProviderSchema },
        errors: [401, 404],
      }),
    })
    .get("/v1/account/card-provider", ({ session }) => getAccountCardConnection(deps, session.accountId), {
      detail: op({
        tags: ["account"],
        security: "bearer",
        summary: "The live card provider connection's status (any member)",
        description:
          "200 `{type, key_last4, provider_account_id, updated_at}`; 404 `not_found` when the account has no active card connection. Never a secret: the operator routes manage the connection.",
        ok: { 200: AccountCardProviderSchema },
        errors: [401, 404],
      }),
    });
  const manage = new Elysia().use(bearerAuth(deps, { manage: "Adding members" })).post(
    "/v1/account/members",
    async ({ session, body, set }) => {
      const user = await addMember(deps, session, body);
      set.status = 201;
      return memberView(user);
    },
    {
      body: MemberBody,
      detail: op({
        tags: ["account"],
        security: "bearer",
        summary: "Add a member (OWNER or ADMIN; else 403 API_KEY_ROLE_REQUIRED)",
        description:
          "201 `{id, email, role}`; an email already in use -> 409 `email_taken`. Only an OWNER may add an OWNER.",
        ok: { 201: MemberSchema },
        errors: [...BODY_ERRORS, 401, 403, 409],
        requestExample: { email: "dev@example.com", password: "a long passphrase", role: "DEVELOPER" },
      }),
    },
  );
  const change = new Elysia()
    .use(bearerAuth(deps, { manage: "Changing or removing members" }))
    .patch(
      "/v1/account/members/:id",
      async ({ session, params, body }) => memberView(await changeMemberRole(deps, session, params.id, body.role)),
      {
        params: MemberParams,
        body: RoleBody,
        detail: op({
          tags: ["account"],
          security: "bearer",
          summary: "Change a member's role (OWNER or ADMIN; else 403 API_KEY_ROLE_REQUIRED)",
          description:
            "200 `{id, email, role}`; applies to the member's live sessions at once. An ADMIN may neither change an OWNER nor make one (403 `forbidden`); demoting the last OWNER -> 409 `last_owner`; a user of another account -> 404. Audit entry `member.role_changed`.",
          ok: { 200: MemberSchema },
          errors: [...BODY_ERRORS, 401, 403, 404, 409],
          requestExample: { role: "VIEWER" },
        }),
      },
    )
    .delete(
      "/v1/account/members/:id",
      async ({ session, params, set }) => {
        await removeMember(deps, session, params.id);
        set.status = 204;
      },
      {
        params: MemberParams,
        body: StrictObject({}),
        detail: op({
          tags: ["account"],
          security: "bearer",
          summary: "Remove a member (OWNER or ADMIN; else 403 API_KEY_ROLE_REQUIRED)",
          description:
            "204; the member's sessions and bearer tokens stop working at once (API keys belong to the account and stay). An ADMIN may not remove an OWNER (403 `forbidden`); the last OWNER -> 409 `last_owner`; a user of another account -> 404. Audit entry `member.removed`.",
          ok: { 204: { empty: "Removed." } },
          errors: [...BODY_ERRORS, 401, 403, 404, 409],
        }),
      },
    );
  const audit = new Elysia()
    .use(bearerAuth(deps, { manage: "Reading the audit log" }))
    .get(
      "/v1/account/audit-log",
      async ({ session }) => ({ data: (await latestAuditEntries(deps, session.accountId, 100)).map(auditEntryView) }),
      {
        detail: op({
          tags: ["account"],
          security: "bearer",
          summary: "The newest 100 audit entries (OWNER or ADMIN; else 403 API_KEY_ROLE_REQUIRED)",
          description:
            "Key issue/rotate/revoke and every successful state-changing dashboard-session request (`dashboard.request`: `target` = method and path, `status`, `detail` = `{mode, request_id}`), newest first.",
          ok: { 200: AuditListSchema },
          errors: [401, 403],
        }),
      },
    );
  return new Elysia().use(read).use(manage).use(change).use(audit);
}
