/** Allowlist serializers of accounts and members (never a password hash). */
import type { AccountSettings } from "./settings";
import type { AccountRow, UserRow } from "./repo";

/** GET /v1/account: `{id, name, role, settings}`; `role` is the caller's. */
export function accountView(account: AccountRow, role: string, settings: AccountSettings) {
  return { id: account.id, name: account.name, role, settings };
}

/** POST /v1/account/members: `{id, email, role}`. */
export function memberView(user: UserRow) {
  return { id: user.id, email: user.email, role: user.role };
}
