/**
 * API key use cases (interface.md "API keys", "Authentication" 5 and 7): issue, list, rotate,
 * revoke. Cleartext is `ak_live_`/`ak_test_` + 24 random bytes in base64url; only its SHA-256
 * fingerprint and a 12-character display prefix are stored. Every change writes an audit entry
 * in the same transaction. Issue/rotate/revoke need OWNER or ADMIN (403 `API_KEY_ROLE_REQUIRED`).
 * Every write clears the authentication cache of the database in the same call (cache.ts
 * invariant), so a revoked or rotated key is 401 on the very next request.
 */
import type { Db } from "../../db/client";
import { tx, type Tx } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { randomBase64Url, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { DomainError, notFound } from "../errors";
import { canManage } from "../accounts/roles";
import { recordAudit } from "../audit/audit-log";
import { invalidateApiKeyCache } from "./cache";
import { findActiveKeyInAccount, insertKey, listActiveKeys, markRevoked, type ApiKeyRow } from "./repo";
import { issuedKeyView, keyListItemView } from "./views";

export type KeyMode = "test" | "live";
/** Longest label in characters (code points; interface.md Limits). */
export const LABEL_MAX = 64;
/** Characters of the cleartext kept for display (`ak_test_` + 4). */
export const PREFIX_LENGTH = 12;

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

/** Throws 403 `API_KEY_ROLE_REQUIRED` unless the actor is OWNER or ADMIN. */
export function requireManager(actor: Pick<Actor, "role">): void {
  if (!canManage(actor.role)) throw new DomainError("API_KEY_ROLE_REQUIRED", "Issuing, rotating and revoking API keys requires the OWNER or ADMIN role.");
}

function checkLabel(label: string | undefined): void {
  if (label !== undefined && [...label].length > LABEL_MAX)
    throw new DomainError("invalid_request", `label must be at most ${LABEL_MAX} characters.`, { param: "label", details: [{ param: "label", message: `At most ${LABEL_MAX} characters.` }] });
}

function newKeyRow(actor: Actor, mode: KeyMode, label: string, now: number) {
  const k = generateKey(mode);
  const row: ApiKeyRow = { id: newId("apiKey"), accountId: actor.accountId, mode, fingerprint: k.fingerprint, prefix: k.prefix, label, createdBy: actor.userId, createdAt: now, revokedAt: null };
  return { row, cleartext: k.cleartext };
}

/** POST /v1/api-keys: issues a key (`test: true` -> sandbox). Returns the one-time issue view. */
export function issueKey(db: Db, clock: Clock, actor: Actor, input: { label?: string; test?: boolean }) {
  requireManager(actor);
  checkLabel(input.label);
  return tx(db, (t) => writeIssuedKey(t, db, actor, input.test ? "test" : "live", input.label ?? "", clock.nowMs()));
}

/**
 * Inside the caller's transaction `t`: stores a new key of `mode` for `actor` with its audit
 * entry and clears the authentication cache of `db`. Returns the one-time issue view (cleartext
 * included). Used by `issueKey` and by `cofre init --test-key` (the account and its first key in
 * one transaction). No role check: callers check.
 */
export function writeIssuedKey(t: Tx, db: Db, actor: Actor, mode: KeyMode, label: string, now: number) {
  const { row, cleartext } = newKeyRow(actor, mode, label, now);
  insertKey(t, row);
  invalidateApiKeyCache(db);
  recordAudit(t, { accountId: actor.accountId, actorUserId: actor.userId, action: "api_key.issued", keyId: row.id, keyFingerprint: row.fingerprint, at: now });
  return issuedKeyView(row, cleartext);
}

/**
 * POST /v1/api-keys/{id}/rotate: in one transaction revokes key `id` and issues its successor
 * (same mode; same label unless `label` is sent). 404 when `id` is not an active key of the
 * actor's account (nothing revoked).
 */
export function rotateKey(db: Db, clock: Clock, actor: Actor, id: string, input: { label?: string }) {
  requireManager(actor);
  checkLabel(input.label);
  return tx(db, (t) => {
    const old = findActiveKeyInAccount(t, actor.accountId, id);
    if (!old) throw notFound("API key");
    const now = clock.nowMs();
    if (!markRevoked(t, actor.accountId, old.id, now)) throw notFound("API key");
    invalidateApiKeyCache(db);
    const { row, cleartext } = newKeyRow(actor, old.mode as KeyMode, input.label ?? old.label, now);
    insertKey(t, row);
    recordAudit(t, {
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
export function revokeKey(db: Db, clock: Clock, actor: Actor, id: string): { revoked: true } {
  requireManager(actor);
  return tx(db, (t) => {
    const key = findActiveKeyInAccount(t, actor.accountId, id);
    if (!key) throw notFound("API key");
    const now = clock.nowMs();
    markRevoked(t, actor.accountId, key.id, now);
    invalidateApiKeyCache(db);
    recordAudit(t, { accountId: actor.accountId, actorUserId: actor.userId, action: "api_key.revoked", keyId: key.id, keyFingerprint: key.fingerprint, at: now });
    return { revoked: true as const };
  });
}

/** GET /v1/api-keys: the account's active keys (no cleartext) and whether the caller may manage them. */
export function listKeys(db: Db, actor: Pick<Actor, "accountId" | "role">) {
  return { data: listActiveKeys(db, actor.accountId).map(keyListItemView), access: { canManage: canManage(actor.role) } };
}
