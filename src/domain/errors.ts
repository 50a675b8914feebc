/**
 * Domain failures as domain types: `DomainError(code, message, extra)`. The domain names WHAT went
 * wrong (a code from the closed list below); the HTTP layer (src/http/errors.ts `ERROR_CODES`, the
 * one table) decides the status and envelope type, in one place (src/app.ts onError). The compiler
 * keeps the list and the table equal: a code added here without a row there does not type-check.
 */

/** Every error code Cofre emits (interface.md "Errors"; the wire names, unchanged). */
export type ErrorCode =
  | "invalid_request"
  | "invalid_amount"
  | "invalid_json"
  | "invalid_state"
  | "idempotency_key_missing"
  | "invalid_idempotency_key"
  | "invalid_currency"
  | "insufficient_balance"
  | "payout_limit_exceeded"
  | "invalid_tax_id"
  | "invalid_cursor"
  | "invalid_url"
  | "invalid_event_type"
  | "charge_not_cancellable"
  | "charge_not_refundable"
  | "charge_disputed"
  | "refund_amount_exceeds_remaining"
  | "receipt_not_available"
  | "REFUND_NOT_SUPPORTED"
  | "invalid_file"
  | "webhook_url_not_allowed"
  | "unauthorized"
  | "invalid_credentials"
  | "forbidden"
  | "test_mode_only"
  | "live_mode_only"
  | "invalid_signature"
  | "upload_url_expired"
  | "API_KEY_ROLE_REQUIRED"
  | "csrf_invalid"
  | "role_forbidden"
  | "profile_locked"
  | "fraud.customer_velocity_exceeded"
  | "fraud.account_velocity_exceeded"
  | "not_found"
  | "method_not_allowed"
  | "request_timeout"
  | "conflict"
  | "idempotency_key_reused"
  | "idempotency_key_in_use"
  | "email_taken"
  | "last_owner"
  | "EVIDENCE_NOT_UPLOADED"
  | "EVIDENCE_SIZE_MISMATCH"
  | "payload_too_large"
  | "unsupported_media_type"
  | "unprocessable_entity"
  | "provider_connection_failed"
  | "rate_limited"
  | "request_headers_too_large"
  | "internal_error"
  | "service_unavailable";

/** One field's failure, as the envelope's `details[]` lists it. */
export interface ErrorDetail {
  param: string;
  message: string;
}

/**
 * What a failure may add: the offending field, per-field details, and response headers (e.g. `Retry-After` in seconds).
 */
export interface ErrorExtra {
  param?: string;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
}

/** A failure the caller caused or may retry; no status here (the HTTP table maps `code`). */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: ErrorExtra = {},
  ) {
    super(message);
  }
}

/** Shorthand for the `not_found` every cross-account or unknown id gets. */
export function notFound(what = "resource"): DomainError {
  return new DomainError("not_found", `No such ${what}.`);
}

/** Shorthand for a single-field validation failure (`param` and one `details` row). */
export function invalidParam(param: string, message: string, code: ErrorCode = "invalid_request"): DomainError {
  return new DomainError(code, message, { param, details: [{ param, message }] });
}
