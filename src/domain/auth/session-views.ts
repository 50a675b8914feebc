/** The dashboard session answer of POST/GET /v1/auth/session (issue 15): who is signed in, and the CSRF token. */
import { OneOf, Type, View, type Static } from "../../lib/view-schema";
import { ROLES, type Role } from "../accounts/roles";

export const DashboardSessionSchema = View("DashboardSession", {
  object: Type.Literal("dashboard_session"),
  account_id: Type.String(),
  account_name: Type.String(),
  user_id: Type.String(),
  email: Type.String(),
  role: OneOf(ROLES, { description: "The signed-in member's current role." }),
  csrf_token: Type.String({
    description: "Send as `X-CSRF-Token` on every state-changing request made with the session cookie.",
  }),
});

/** `{object, account_id, account_name, user_id, email, role, csrf_token}`. */
export function dashboardSessionView(s: {
  accountId: string;
  accountName: string;
  userId: string;
  email: string;
  role: Role;
  csrfToken: string;
}): Static<typeof DashboardSessionSchema> {
  return {
    object: "dashboard_session",
    account_id: s.accountId,
    account_name: s.accountName,
    user_id: s.userId,
    email: s.email,
    role: s.role,
    csrf_token: s.csrfToken,
  };
}
