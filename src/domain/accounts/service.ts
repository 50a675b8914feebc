/**
 * Account use cases: the first account and its OWNER (`cofre init`), members added from the
 * dashboard (extensions.md "Dashboard authentication"). Emails are stored normalised
 * (src/lib/email.ts normalizeEmail: NFKC, no invisible or bidi characters, trimmed, lowercased)
 * and are unique across the whole service (one login per email).
 */
import { isEmailAddress, normalizeEmail } from "../../lib/email";
import type { Deps } from "../deps";
import type { Uow } from "../../store/port";
import type { AccountRow, UserRow } from "../../store/rows";
import { newId } from "../../lib/ids";
import { DomainError, invalidParam, notFound } from "../errors";
import { hashPassword, passwordProblem, verifyPassword } from "../auth/passwords";
import { canManage, ROLES, type Role } from "./roles";
import { recordMemberAction } from "../audit/audit-log";
import { writeIssuedKey } from "../api-keys/service";

/** What the account use cases need. */
export type AccountServiceDeps = Pick<Deps, "store" | "clock" | "apiKeyCache">;

export { normalizeEmail };

/** Validates and normalizes an email for a new user. Throws 400 `invalid_request` (param `email`). */
export function checkNewEmail(email: string): string {
  const e = normalizeEmail(email);
  if (e.length > 254 || !isEmailAddress(e)) throw invalidParam("email", "Must be a valid email address.");
  return e;
}

/** Throws 400 `invalid_request` (param `password`) unless the password is 8-256 characters. */
export function checkNewPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw invalidParam("password", problem);
}

export interface CreatedAccount {
  accountId: string;
  userId: string;
  email: string;
  /** Cleartext of the sandbox key issued with the account (`testKey: true` only), shown once. */
  testApiKey?: string;
}

/**
 * Creates an account (operator settings at their defaults) and its OWNER user, in one transaction;
 * with `testKey` also a sandbox API key (label "cofre init") in that same transaction.
 * Throws 400 for a bad email/password, 409 `email_taken` when the email exists (nothing written).
 */
export async function createAccountWithOwner(
  deps: AccountServiceDeps,
  input: { email: string; password: string; accountName?: string; testKey?: boolean },
): Promise<CreatedAccount> {
  const email = checkNewEmail(input.email);
  checkNewPassword(input.password);
  const name = (input.accountName ?? "").trim() || email;
  const passwordHash = await hashPassword(input.password);
  return deps.store.tx(async (uow) => {
    if (await uow.accounts.userByEmail(email))
      throw new DomainError("email_taken", "A user with this email already exists.", { param: "email" });
    const now = deps.clock.nowMs();
    const accountId = newId("account");
    const userId = newId("user");
    await uow.accounts.insert({ id: accountId, name, createdAt: now });
    await uow.accounts.insertUser({ id: userId, accountId, email, passwordHash, role: "OWNER", createdAt: now });
    if (!input.testKey) return { accountId, userId, email };
    const key = await writeIssuedKey(
      uow,
      deps.apiKeyCache,
      { accountId, userId, role: "OWNER" },
      "test",
      "cofre init",
      now,
    );
    return { accountId, userId, email, testApiKey: key.apiKey };
  });
}

/**
 * `cofre init` run again (extensions.md "Merchant profile and a repeatable first run"): when
 * `input.email` belongs to an OWNER whose password is `input.password`, answers that account and
 * user as `createAccountWithOwner` would, and with `testKey` issues a NEW sandbox key (label
 * "cofre init") in one transaction; the account name is left as it is. Any other case (unknown
 * email, wrong password, not an OWNER) throws 409 `email_taken` with nothing written.
 */
export async function reopenAccountWithOwner(
  deps: AccountServiceDeps,
  input: { email: string; password: string; testKey?: boolean },
): Promise<CreatedAccount> {
  const email = normalizeEmail(input.email);
  const user = await deps.store.read.accounts.userByEmail(email);
  const ok = user !== undefined && user.role === "OWNER" && (await verifyPassword(input.password, user.passwordHash));
  if (!user || !ok)
    throw new DomainError("email_taken", "A user with this email already exists (with another password).", {
      param: "email",
    });
  const found = { accountId: user.accountId, userId: user.id, email: user.email };
  if (!input.testKey) return found;
  return deps.store.tx(async (uow) => {
    const key = await writeIssuedKey(
      uow,
      deps.apiKeyCache,
      { accountId: user.accountId, userId: user.id, role: "OWNER" },
      "test",
      "cofre init",
      deps.clock.nowMs(),
    );
    return { ...found, testApiKey: key.apiKey };
  });
}

/**
 * Adds a member to `accountId`. Only OWNER/ADMIN may (403 `API_KEY_ROLE_REQUIRED`); only an OWNER
 * may add another OWNER (403 `forbidden`). 409 `email_taken` when the email exists anywhere.
 */
export async function addMember(
  deps: Pick<Deps, "store" | "clock">,
  actor: { accountId: string; role: string },
  input: { email: string; password: string; role: string },
): Promise<UserRow> {
  if (!canManage(actor.role))
    throw new DomainError("API_KEY_ROLE_REQUIRED", "Adding members requires the OWNER or ADMIN role.");
  if (!(ROLES as readonly string[]).includes(input.role))
    throw invalidParam("role", `Must be one of ${ROLES.join(", ")}.`);
  if (input.role === "OWNER" && actor.role !== "OWNER")
    throw new DomainError("forbidden", "Only an OWNER can add another OWNER.", { param: "role" });
  const email = checkNewEmail(input.email);
  checkNewPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  return deps.store.tx(async (uow) => {
    if (await uow.accounts.userByEmail(email))
      throw new DomainError("email_taken", "A user with this email already exists.", { param: "email" });
    const row: UserRow = {
      id: newId("user"),
      accountId: actor.accountId,
      email,
      passwordHash,
      role: input.role as Role,
      createdAt: deps.clock.nowMs(),
    };
    await uow.accounts.insertUser(row);
    return row;
  });
}

/** The account `accountId` (its row) or `not_found` (an account deleted under a live session). */
export async function getAccount(deps: Pick<Deps, "store">, accountId: string): Promise<AccountRow> {
  const account = await deps.store.read.accounts.byId(accountId);
  if (!account) throw notFound("account");
  return account;
}

/** How many accounts exist (0 on a fresh install: `serve` then prints how to run `cofre init`). */
export function countAccounts(deps: Pick<Deps, "store">): Promise<number> {
  return deps.store.read.accounts.count();
}

/** The members (users) of `accountId`, oldest first. */
export function listMembers(deps: Pick<Deps, "store">, accountId: string): Promise<UserRow[]> {
  return deps.store.read.accounts.listUsers(accountId);
}

/**
 * The member `userId` of the actor's account, checked for a change by `actor` (inside `uow`).
 * 403 `API_KEY_ROLE_REQUIRED` unless the actor is OWNER/ADMIN; 404 `not_found` when the user is
 * not a member of the actor's account; 403 `forbidden` when an ADMIN targets an OWNER.
 */
async function memberToChange(uow: Uow, actor: { accountId: string; role: string }, userId: string): Promise<UserRow> {
  const user = await uow.accounts.userById(userId);
  if (!user || user.accountId !== actor.accountId) throw notFound("member");
  if (user.role === "OWNER" && actor.role !== "OWNER")
    throw new DomainError("forbidden", "Only an OWNER can change or remove an OWNER.");
  return user;
}

/**
 * Changes the role of member `userId` (PATCH /v1/account/members/{id}; issue 15 "members and
 * roles"). Rules: OWNER/ADMIN only (403 `API_KEY_ROLE_REQUIRED`); an ADMIN neither changes an
 * OWNER nor makes one (403 `forbidden`); demoting the account's last OWNER is 409 `last_owner`;
 * another account's user is 404. The new role applies to the member's live sessions at once
 * (their role is read on every request). Audit entry `member.role_changed` in the same unit of work.
 */
export async function changeMemberRole(
  deps: Pick<Deps, "store" | "clock">,
  actor: { accountId: string; userId: string; role: string },
  userId: string,
  role: string,
): Promise<UserRow> {
  if (!canManage(actor.role))
    throw new DomainError("API_KEY_ROLE_REQUIRED", "Changing members requires the OWNER or ADMIN role.");
  if (!(ROLES as readonly string[]).includes(role)) throw invalidParam("role", `Must be one of ${ROLES.join(", ")}.`);
  return deps.store.tx(async (uow) => {
    const user = await memberToChange(uow, actor, userId);
    if (role === "OWNER" && actor.role !== "OWNER")
      throw new DomainError("forbidden", "Only an OWNER can make another OWNER.", { param: "role" });
    if (user.role === role) return user;
    if (user.role === "OWNER" && (await uow.accounts.countOwners(actor.accountId)) <= 1)
      throw new DomainError(
        "last_owner",
        "The account's last OWNER cannot be demoted; make another member OWNER first.",
      );
    await uow.accounts.setUserRole(user.id, role);
    await recordMemberAction(uow, {
      accountId: actor.accountId,
      actorUserId: actor.userId,
      action: "member.role_changed",
      userId: user.id,
      detail: { email: user.email, from: user.role, to: role },
      at: deps.clock.nowMs(),
    });
    return { ...user, role };
  });
}

/**
 * Removes member `userId` (DELETE /v1/account/members/{id}): deletes the user and revokes all
 * their sessions and bearer tokens at once, in one transaction with the audit entry
 * `member.removed`. Same checks as changeMemberRole; removing the last OWNER is 409 `last_owner`.
 * API keys the member issued belong to the account and keep working.
 */
export async function removeMember(
  deps: Pick<Deps, "store" | "clock">,
  actor: { accountId: string; userId: string; role: string },
  userId: string,
): Promise<void> {
  if (!canManage(actor.role))
    throw new DomainError("API_KEY_ROLE_REQUIRED", "Removing members requires the OWNER or ADMIN role.");
  await deps.store.tx(async (uow) => {
    const user = await memberToChange(uow, actor, userId);
    if (user.role === "OWNER" && (await uow.accounts.countOwners(actor.accountId)) <= 1)
      throw new DomainError(
        "last_owner",
        "The account's last OWNER cannot be removed; make another member OWNER first.",
      );
    const now = deps.clock.nowMs();
    await uow.accounts.removeUserAndSessions(user.id, now);
    await recordMemberAction(uow, {
      accountId: actor.accountId,
      actorUserId: actor.userId,
      action: "member.removed",
      userId: user.id,
      detail: { email: user.email, role: user.role },
      at: now,
    });
  });
}
