/** Account member roles (interface.md "Authentication" 5; extensions.md "Dashboard authentication"). */

export const ROLES = ["OWNER", "ADMIN", "DEVELOPER", "VIEWER"] as const;
export type Role = (typeof ROLES)[number];

/** Roles that may issue, rotate and revoke API keys and add members. */
export const MANAGER_ROLES: readonly Role[] = ["OWNER", "ADMIN"];

/** True for OWNER and ADMIN. */
export function canManage(role: string): boolean {
  return (MANAGER_ROLES as readonly string[]).includes(role);
}
