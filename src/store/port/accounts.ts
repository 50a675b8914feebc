/** The accounts repository of the storage port: accounts (with their operator settings) and their members (users). */
import type { AccountRow, NewAccountRow, NewUserRow, UserRow } from "../rows";

/** The operator-controlled columns of an account (extensions.md "Operator API"): what `updateSettings` may set. */
export type AccountSettingsColumns = Partial<Omit<NewAccountRow, "id" | "name" | "createdAt">>;

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. Times are epoch ms. */
export interface AccountsRepo {
  /** The account `id`, or undefined. */
  byId(id: string): Promise<AccountRow | undefined>;
  /** How many accounts exist (0 on a fresh install). */
  count(): Promise<number>;
  /** Inserts an account (settings at their column defaults unless given). */
  insert(row: NewAccountRow): Promise<void>;
  /** Sets the given settings columns of account `id` (nothing when `set` is empty or the account is unknown). */
  updateSettings(id: string, set: AccountSettingsColumns): Promise<void>;
  /** The user with this (already normalized) email, in any account. */
  userByEmail(email: string): Promise<UserRow | undefined>;
  /** The user `id`, in any account. */
  userById(id: string): Promise<UserRow | undefined>;
  /** Inserts a user (member). */
  insertUser(row: NewUserRow): Promise<void>;
  /** The members of `accountId`, oldest first (created_at, then id). */
  listUsers(accountId: string): Promise<UserRow[]>;
  /** How many OWNER members `accountId` has. */
  countOwners(accountId: string): Promise<number>;
  /** Sets the role of user `id`. */
  setUserRole(id: string, role: string): Promise<void>;
  /** Deletes user `id` and revokes, at `now`, every live session (bearer token or dashboard cookie) of theirs. */
  removeUserAndSessions(id: string, now: number): Promise<void>;
}
