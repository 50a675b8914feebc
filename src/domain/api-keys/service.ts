/**
 * API key use cases (interface.md "API keys", "Authentication" 5 and 7): issue, list, rotate,
 * revoke. Cleartext is `ak_live_`/`ak_test_` + 24 random bytes in base64url; only its SHA-256
 * fingerprint and a 12-character display prefix are stored. Every change writes an audit entry
 * in the same transaction. Issue/rotate/revoke need OWNER or ADMIN (403 `API_KEY_ROLE_REQUIRED`).
 * Every unit of work that writes a key clears the authentication cache in `uow.afterCommit`
 * (cache.ts invariant), so a revoked or rotated key is 401 on the very next request.
 */
import type { Deps } from "../deps";
import type { Uow } from "../../store/port";
import type { ApiKeyRow } from "../../store/rows";
import { randomBase64Url, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { DomainError, notFound } from "../errors";
import { canManage } from "../accounts/roles";
import { recordAudit } from "../audit/audit-log";
import type { ApiKeyCache } from "./cache";
import { issuedKeyView, keyListItemView } from "./views";

export type KeyMode = "test" | "live";
/** Longest label in characters (code points; interface.md Limits). */
export const LABEL_MAX = 64;
/** Characters of the cleartext kept for display (`ak_test_` + 4). */
export const PREFIX_LENGTH = 12;

/** What the key use cases need. */
export type ApiKeyServiceDeps = Pick<Deps, "store" | "clock" | "apiKeyCache">;

/** Who acts: from the dashboard session. */
export interface Actor {
  accountId: string;
  userId: string;
  role: string;
}

/** A fresh cleartext key of `mode` with its fingerprint and display prefix. */
export function generateKey(mode: KeyMode): { cleartext: string; fingerprint: string; prefix: string } {
  const cleartext = `ak_${mode}_${randomBase64Url(24)}`;
  return { cleartext, fingerprint: sha256Hex(cleartext), prefix: cleartext.slice(0, PREFIX_LENGTH) };
}

/**
 * Throws 403 `API_KEY_ROLE_REQUIRED` (the contract's code for every role failure) unless the actor
 * is OWNER or ADMIN; the message says what `action` needs (issue 30 §6), and the actor's role.
 */
export function requireManager(actor: Pick<Actor, "role">, action = "Issuing, rotating and revoking API keys"): void {
  if (!canManage(actor.role))
    throw new DomainError(
      "API_KEY_ROLE_REQUIRED",
      `${action} requires the OWNER or ADMIN role; yours is ${actor.role}.`,
    );
}

function checkLabel(label: string | undefined): void {
  if (label !== undefined && [...label].length > LABEL_MAX)
    throw new DomainError("invalid_request", `label must be at most ${LABEL_MAX} characters.`, {
      param: "label",
      details: [{ param: "label", message: `At most ${LABEL_MAX} characters.` }],
    });
}

function newKeyRow(actor: Actor, mode: KeyMode, label: string, now: number) {
  const k = generateKey(mode);
  const row: ApiKeyRow = {
    id: newId("apiKey"),
    accountId: actor.accountId,
    mode,
    fingerprint: k.fingerprint,
    prefix: k.prefix,
    label,
    createdBy: actor.userId,
    createdAt: now,
    revokedAt: null,
  };
  return { row, cleartext: k.cleartext };
}

/** POST /v1/api-keys: issues a key (`test: true` -> sandbox). Returns the one-time issue view. */
export async function issueKey(deps: ApiKeyServiceDeps, actor: Actor, input: { label?: string; test?: boolean }) {
  requireManager(actor);
  checkLabel(input.label);
  return deps.store.tx((uow) =>
    writeIssuedKey(uow, deps.apiKeyCache, actor, input.test ? "test" : "live", input.label ?? "", deps.clock.nowMs()),
  );
}

/**
 * Inside the caller's unit of work `uow`: stores a new key of `mode` for `actor` with its audit
 * entry, and clears the authentication cache `cache` once the unit commits. Returns the one-time
 * issue view (cleartext included). Used by `issueKey` and by `cofre init --test-key` (the account
 * and its first key in one unit). No role check: callers check.
 */
export async function writeIssuedKey(
  uow: Uow,
  cache: ApiKeyCache,
  actor: Actor,
  mode: KeyMode,
  label: string,
  now: number,
) {
  const { row, cleartext } = newKeyRow(actor, mode, label, now);
  await uow.apiKeys.insert(row);
  uow.afterCommit(() => cache.clear());
  await recordAudit(uow, {
    accountId: actor.accountId,
    actorUserId: actor.userId,
    action: "api_key.issued",
    keyId: row.id,
    keyFingerprint: row.fingerprint,
    at: now,
  });
  return issuedKeyView(row, cleartext);
}

/**
 * POST /v1/api-keys/{id}/rotate: in one unit of work revokes key `id` and issues its successor
 * (same mode; same label unless `label` is sent). 404 when `id` is not an active key of the
 * actor's account (nothing revoked).
 */
export async function rotateKey(deps: ApiKeyServiceDeps, actor: Actor, id: string, input: { label?: string }) {
  requireManager(actor);
  checkLabel(input.label);
  return deps.store.tx(async (uow) => {
    const old = await uow.apiKeys.activeInAccount(actor.accountId, id);
    if (!old) throw notFound("API key");
    const now = deps.clock.nowMs();
    if (!(await uow.apiKeys.revoke(actor.accountId, old.id, now))) throw notFound("API key");
    uow.afterCommit(() => deps.apiKeyCache.clear());
    const { row, cleartext } = newKeyRow(actor, old.mode as KeyMode, input.label ?? old.label, now);
    await uow.apiKeys.insert(row);
    await recordAudit(uow, {
      accountId: actor.accountId,
      actorUserId: actor.userId,
      action: "api_key.rotated",
      keyId: row.id,
      keyFingerprint: row.fingerprint,
      previousKeyId: old.id,
      previousKeyFingerprint: old.fingerprint,
      at: now,
    });
    return issuedKeyView(row, cleartext);
  });
}

/** DELETE /v1/api-keys/{id}: permanent. 404 when `id` is not an active key of the actor's account. */
export async function revokeKey(deps: ApiKeyServiceDeps, actor: Actor, id: string): Promise<{ revoked: true }> {
  requireManager(actor);
  return deps.store.tx(async (uow) => {
    const key = await uow.apiKeys.activeInAccount(actor.accountId, id);
    if (!key) throw notFound("API key");
    const now = deps.clock.nowMs();
    await uow.apiKeys.revoke(actor.accountId, key.id, now);
    uow.afterCommit(() => deps.apiKeyCache.clear());
    await recordAudit(uow, {
      accountId: actor.accountId,
      actorUserId: actor.userId,
      action: "api_key.revoked",
      keyId: key.id,
      keyFingerprint: key.fingerprint,
      at: now,
    });
    return { revoked: true as const };
  });
}

/** GET /v1/api-keys: the account's active keys (no cleartext) and whether the caller may manage them. */
export async function listKeys(deps: Pick<Deps, "store">, actor: Pick<Actor, "accountId" | "role">) {
  return {
    data: (await deps.store.read.apiKeys.listActive(actor.accountId)).map(keyListItemView),
    access: { canManage: canManage(actor.role) },
  };
}
