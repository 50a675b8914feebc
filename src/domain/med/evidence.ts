/**
 * MED evidence in three steps (interface.md "Evidence upload in three steps"):
 *  1. `requestUpload`: validates name, exact size (<= 10 MB) and type, returns a signed PUT URL
 *     valid 900 s. The HMAC-SHA256 signature binds the evidence id, mime type, size and expiry.
 *  2. `receiveUpload`: the HTTP PUT stores the bytes and their SHA-256 (a different byte count
 *     is stored and reported by step 3).
 *  3. `completeUpload`: 409 `EVIDENCE_NOT_UPLOADED` before the PUT or after the URL expired,
 *     409 `EVIDENCE_SIZE_MISMATCH` when the stored size differs; idempotent once confirmed.
 * Only confirmed evidence is listed (newest first, `view_url` signed for 5 minutes) and counted.
 */
import type { Deps } from "../deps";
import { DomainError, invalidParam, notFound } from "../errors";
import { hmacHex, randomHex, safeEqual, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { EVIDENCE_MAX_BYTES, EVIDENCE_MIME_TYPES, UPLOAD_URL_TTL_S, VIEW_URL_TTL_S, isFinal } from "./model";
import type { MedEvidenceRow } from "../../store/rows";
import type { Scope } from "../scope";
import { assertWritable, getFile, putFile } from "./storage";
import { toPublicEvidence, toUploadRequest } from "./views";

const SECRET_NAME = "evidence_urls";
/** Path prefix of the upload and view URLs (the app skips JSON parsing under `/v1/uploads/`). */
export const EVIDENCE_URL_PATH = "/v1/uploads/med-evidence";

export interface UploadRequestInput {
  file_name: unknown;
  file_size: unknown;
  mime_type: unknown;
}

/** Step 1. Throws 400 `invalid_file`/`invalid_request`, 404, 400 `invalid_state` (final case), 503. */
export async function requestUpload(deps: Deps, scope: Scope, caseId: string, input: UploadRequestInput) {
  const { file_name: name, file_size: size, mime_type: mime } = input;
  if (typeof name !== "string" || name.trim() === "" || [...name].length > 255 || /[\x00-\x1f\x7f/\\]/.test(name))
    throw invalidParam(
      "file_name",
      "file_name must be 1-255 characters without slashes or control characters.",
      "invalid_file",
    );
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 1 || size > EVIDENCE_MAX_BYTES)
    throw invalidParam(
      "file_size",
      `file_size must be the exact size in bytes, from 1 to ${EVIDENCE_MAX_BYTES} (10 MB).`,
      "invalid_file",
    );
  if (typeof mime !== "string" || !(EVIDENCE_MIME_TYPES as readonly string[]).includes(mime))
    throw invalidParam("mime_type", `mime_type must be one of ${EVIDENCE_MIME_TYPES.join(", ")}.`, "invalid_file");
  const kase = await deps.store.read.med.caseInScope(scope, caseId);
  if (!kase) throw notFound("MED case");
  if (isFinal(kase.status))
    throw new DomainError("invalid_state", `The MED case is already ${kase.status}; no more evidence is accepted.`);
  assertWritable(deps);
  const now = deps.clock.nowMs();
  const expiresS = Math.floor(now / 1000) + UPLOAD_URL_TTL_S;
  const id = newId("evidence");
  const row = await deps.store.tx((uow) =>
    uow.med.insertEvidence({
      id,
      caseId: kase.id,
      accountId: kase.accountId,
      livemode: kase.livemode,
      fileName: name,
      fileSize: size,
      mimeType: mime,
      uploadedBy: "merchant",
      state: "requested",
      uploadExpiresAt: expiresS * 1000,
      createdAt: now,
    }),
  );
  const sig = uploadSignature(await secret(deps), row, expiresS);
  const url = `${deps.config.publicUrl}${EVIDENCE_URL_PATH}/${id}?expires=${expiresS}&signature=${sig}`;
  return toUploadRequest(row, url, UPLOAD_URL_TTL_S);
}

export interface UploadPut {
  evidenceId: string;
  expires: string | null;
  signature: string | null;
  /** Content-Type header as sent. */
  contentType: string | null;
  bytes: Uint8Array;
}

/**
 * Step 2 (the PUT). Throws 403 `invalid_signature` (unknown id or bad signature), 403
 * `upload_url_expired`, 409 `conflict` (already confirmed), 415 `unsupported_media_type`
 * (Content-Type differs from the signed type), 413 (over 10 MB), 503 (storage).
 */
export async function receiveUpload(
  deps: Deps,
  put: UploadPut,
): Promise<{ id: string; received_bytes: number; sha256: string }> {
  const row = await deps.store.read.med.evidenceById(put.evidenceId);
  const expiresS = Number(put.expires);
  if (
    !row ||
    !put.signature ||
    !/^\d{1,12}$/.test(put.expires ?? "") ||
    !safeEqual(put.signature, uploadSignature(await secret(deps), row, expiresS))
  )
    throw new DomainError("invalid_signature", "The upload URL signature is invalid.");
  if (deps.clock.nowMs() > expiresS * 1000 || expiresS * 1000 !== row.uploadExpiresAt)
    throw new DomainError("upload_url_expired", "The upload URL has expired; request a new one.");
  if (row.state === "confirmed")
    throw new DomainError("conflict", "This evidence is already confirmed; request a new upload URL for another file.");
  const sent = (put.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (sent !== row.mimeType)
    throw new DomainError(
      "unsupported_media_type",
      `Content-Type must be ${row.mimeType}, as signed in the upload URL.`,
      { param: "Content-Type" },
    );
  if (put.bytes.byteLength > EVIDENCE_MAX_BYTES)
    throw new DomainError("payload_too_large", "Evidence files are at most 10 MB.");
  const key = `med-evidence/${row.accountId}/${row.id}`;
  const stored = putFile(deps, key, put.bytes);
  const receivedAt = deps.clock.nowMs();
  await deps.store.tx((uow) =>
    uow.med.updateEvidence(row.id, {
      state: "received",
      storedSize: stored.size,
      sha256: stored.sha256,
      storageKey: key,
      receivedAt,
    }),
  );
  return { id: row.id, received_bytes: stored.size, sha256: stored.sha256 };
}

/** Step 3. Throws 404, 409 `EVIDENCE_NOT_UPLOADED`, 409 `EVIDENCE_SIZE_MISMATCH`, 503. Returns the evidence object. */
export async function completeUpload(deps: Deps, scope: Scope, caseId: string, evidenceId: string) {
  const kase = await deps.store.read.med.caseInScope(scope, caseId);
  if (!kase) throw notFound("MED case");
  const row = await deps.store.read.med.evidenceOfCase(kase.id, evidenceId);
  if (!row) throw notFound("evidence");
  if (row.state !== "confirmed") {
    const now = deps.clock.nowMs();
    if (row.state !== "received" || now > row.uploadExpiresAt || !row.storageKey)
      throw new DomainError(
        "EVIDENCE_NOT_UPLOADED",
        "The file was not uploaded (or the upload URL expired); request a new upload URL.",
      );
    if (row.storedSize !== row.fileSize)
      throw new DomainError(
        "EVIDENCE_SIZE_MISMATCH",
        `The uploaded file has ${row.storedSize} bytes; ${row.fileSize} were declared.`,
      );
    const bytes = getFile(deps, row.storageKey);
    if (!bytes || bytes.byteLength !== row.fileSize || sha256Hex(bytes) !== row.sha256)
      throw new DomainError(
        "EVIDENCE_NOT_UPLOADED",
        "The stored file is missing or changed; request a new upload URL.",
      );
    await deps.store.tx(async (uow) => {
      const fresh = (await uow.med.evidenceById(row.id))!;
      if (fresh.state === "confirmed") return;
      await uow.med.updateEvidence(row.id, { state: "confirmed", uploadedAt: now });
      await uow.med.incrementEvidenceCount(kase.id, now);
    });
  }
  return evidenceView(deps, await secret(deps), (await deps.store.read.med.evidenceById(row.id))!);
}

/** `{object: "list", data}`: confirmed evidence of the case, newest first. Throws 404. */
export async function listEvidence(deps: Deps, scope: Scope, caseId: string) {
  const kase = await deps.store.read.med.caseInScope(scope, caseId);
  if (!kase) throw notFound("MED case");
  const rows = await deps.store.read.med.confirmedEvidence(kase.id);
  const key = rows.length > 0 ? await secret(deps) : "";
  return { object: "list" as const, data: rows.map((r) => evidenceView(deps, key, r)) };
}

/**
 * Serves a confirmed file for a signed view URL. Throws 403 `invalid_signature` /
 * `upload_url_expired`, 404 (not confirmed or file gone), 503.
 */
export async function viewEvidence(deps: Deps, id: string, expires: string | null, signature: string | null) {
  const row = await deps.store.read.med.evidenceById(id);
  const expiresS = Number(expires);
  if (
    !row ||
    !signature ||
    !/^\d{1,12}$/.test(expires ?? "") ||
    !safeEqual(signature, viewSignature(await secret(deps), id, expiresS))
  )
    throw new DomainError("invalid_signature", "The link signature is invalid.");
  if (deps.clock.nowMs() > expiresS * 1000)
    throw new DomainError("upload_url_expired", "The link has expired; list the evidence again for a fresh one.");
  if (row.state !== "confirmed" || !row.storageKey) throw notFound("evidence");
  const bytes = getFile(deps, row.storageKey);
  if (!bytes) throw notFound("evidence");
  return { bytes, mimeType: row.mimeType, fileName: row.fileName, sha256: row.sha256 };
}

/** The public evidence object with a fresh signed `view_url` (5 minutes); `key`: the URL secret. */
function evidenceView(deps: Deps, key: string, row: MedEvidenceRow) {
  const expiresS = Math.floor(deps.clock.nowMs() / 1000) + VIEW_URL_TTL_S;
  const url = `${deps.config.publicUrl}${EVIDENCE_URL_PATH}/${row.id}/view?expires=${expiresS}&signature=${viewSignature(key, row.id, expiresS)}`;
  return toPublicEvidence(row, url);
}

/**
 * The HMAC secret of the signed URLs: 32 random bytes (hex) created on first use and kept in the
 * database (`med_secrets`), so URLs survive restarts. A read; the first use writes it in a unit.
 */
async function secret(deps: Deps): Promise<string> {
  const found = await deps.store.read.med.secret(SECRET_NAME);
  if (found) return found;
  const fresh = randomHex(32);
  const now = deps.clock.nowMs();
  return deps.store.tx((uow) => uow.med.keepSecret(SECRET_NAME, fresh, now));
}

function uploadSignature(key: string, row: MedEvidenceRow, expiresS: number): string {
  return hmacHex(key, `upload\n${row.id}\n${row.mimeType}\n${row.fileSize}\n${expiresS}`);
}

function viewSignature(key: string, id: string, expiresS: number): string {
  return hmacHex(key, `view\n${id}\n${expiresS}`);
}
