/**
 * The one error envelope (interface.md "Errors") and the closed table of error codes.
 * Domain code throws `DomainError(code, message, extra)` (src/domain/errors.ts); HTTP code may
 * throw `ApiError` (a DomainError with its status). `onError` in src/app.ts maps and renders both.
 */
import { DomainError, type ErrorCode, type ErrorDetail, type ErrorExtra } from "../domain/errors";

export type { ErrorCode, ErrorDetail };

export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "conflict_error"
  | "rate_limit_error"
  | "api_error";

/**
 * Every error code Cofre emits, with its HTTP status and envelope type: the one source of statuses.
 * A new code goes in `ErrorCode` (src/domain/errors.ts) and gets its row here; `satisfies` refuses
 * a missing or an extra row.
 */
export const ERROR_CODES = {
  invalid_request: [400, "invalid_request_error"],
  invalid_amount: [400, "invalid_request_error"],
  invalid_json: [400, "invalid_request_error"],
  invalid_state: [400, "invalid_request_error"],
  idempotency_key_missing: [400, "invalid_request_error"],
  invalid_idempotency_key: [400, "invalid_request_error"],
  invalid_currency: [400, "invalid_request_error"],
  insufficient_balance: [400, "invalid_request_error"],
  payout_limit_exceeded: [400, "invalid_request_error"],
  invalid_tax_id: [400, "invalid_request_error"],
  invalid_cursor: [400, "invalid_request_error"],
  invalid_url: [400, "invalid_request_error"],
  invalid_event_type: [400, "invalid_request_error"],
  charge_not_cancellable: [400, "invalid_request_error"],
  charge_not_refundable: [400, "invalid_request_error"],
  charge_disputed: [400, "invalid_request_error"],
  refund_amount_exceeds_remaining: [400, "invalid_request_error"],
  receipt_not_available: [400, "invalid_request_error"],
  REFUND_NOT_SUPPORTED: [400, "invalid_request_error"],
  invalid_file: [400, "invalid_request_error"],
  webhook_url_not_allowed: [400, "invalid_request_error"],
  unauthorized: [401, "authentication_error"],
  invalid_credentials: [401, "authentication_error"],
  forbidden: [403, "permission_error"],
  test_mode_only: [403, "permission_error"],
  live_mode_only: [403, "permission_error"],
  invalid_signature: [403, "permission_error"],
  upload_url_expired: [403, "permission_error"],
  API_KEY_ROLE_REQUIRED: [403, "permission_error"],
  /** Dashboard session: the request's CSRF token (`X-CSRF-Token`) is missing or wrong. */
  csrf_invalid: [403, "permission_error"],
  /** Dashboard session: the member's role may not do this (src/domain/auth/dashboard-roles.ts). */
  role_forbidden: [403, "permission_error"],
  profile_locked: [403, "permission_error"],
  "fraud.customer_velocity_exceeded": [403, "permission_error"],
  "fraud.account_velocity_exceeded": [403, "permission_error"],
  not_found: [404, "not_found_error"],
  method_not_allowed: [405, "invalid_request_error"],
  request_timeout: [408, "invalid_request_error"],
  conflict: [409, "conflict_error"],
  idempotency_key_reused: [409, "conflict_error"],
  idempotency_key_in_use: [409, "conflict_error"],
  email_taken: [409, "conflict_error"],
  /** Members: the change would leave the account without an OWNER (demote or remove its last one). */
  last_owner: [409, "conflict_error"],
  EVIDENCE_NOT_UPLOADED: [409, "conflict_error"],
  EVIDENCE_SIZE_MISMATCH: [409, "conflict_error"],
  payload_too_large: [413, "invalid_request_error"],
  unsupported_media_type: [415, "invalid_request_error"],
  unprocessable_entity: [422, "invalid_request_error"],
  provider_connection_failed: [422, "invalid_request_error"],
  rate_limited: [429, "rate_limit_error"],
  /** The URL or a header Cofre reads is over its size (src/app.ts MAX_HEADER_FIELD_BYTES; issue 30 §4). */
  request_headers_too_large: [431, "invalid_request_error"],
  internal_error: [500, "api_error"],
  service_unavailable: [503, "api_error"],
} as const satisfies Record<ErrorCode, readonly [number, ErrorType]>;

/** A DomainError with its status and type from ERROR_CODES; what the HTTP layer renders. */
export class ApiError extends DomainError {
  readonly status: number;
  readonly type: ErrorType;
  constructor(code: ErrorCode, message: string, extra: ErrorExtra = {}) {
    super(code, message, extra);
    const [status, type] = ERROR_CODES[code];
    this.status = status;
    this.type = type;
  }

  /** The HTTP form of a domain failure (same code, message, param, details, headers); an ApiError as is. */
  static from(err: DomainError): ApiError {
    if (err instanceof ApiError) return err;
    const api = new ApiError(err.code, err.message, err.extra);
    api.stack = err.stack;
    return api;
  }
}

/** HTTP status of a domain failure, from the one table. */
export function statusOf(err: DomainError): number {
  return ERROR_CODES[err.code][0];
}

/** Envelope body: `{error: {type, code, message, param?, details?}, request_id}`. */
export function envelope(err: ApiError, requestId: string) {
  const error: Record<string, unknown> = { type: err.type, code: err.code, message: err.message };
  if (err.extra.param !== undefined) error.param = err.extra.param;
  if (err.extra.details !== undefined) error.details = err.extra.details;
  return { error, request_id: requestId };
}

/** Shorthand for the 404 every cross-account or unknown id gets. */
export function notFound(what = "resource"): ApiError {
  return new ApiError("not_found", `No such ${what}.`);
}

/** Shorthand for a single-field validation failure. */
export function invalidParam(param: string, message: string, code: ErrorCode = "invalid_request"): ApiError {
  return new ApiError(code, message, { param, details: [{ param, message }] });
}
