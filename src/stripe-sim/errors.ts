/**
 * stripe-sim errors in Stripe's shape: `{error: {type, code?, message, param?, doc_url?}}` with
 * the status Stripe answers (400 invalid_request_error / idempotency_error, 401 bad key,
 * 402 card_error, 404 resource_missing). Handlers throw `StripeSimError`; the server writes it.
 */
export type StripeErrorType = "invalid_request_error" | "idempotency_error" | "card_error" | "api_error";

export interface StripeErrorBody {
  type: StripeErrorType;
  code?: string;
  message: string;
  param?: string;
  doc_url?: string;
  decline_code?: string;
}

export class StripeSimError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }

  toJSON(): { error: StripeErrorBody } {
    return { error: this.body };
  }
}

function withDoc(code: string): { code: string; doc_url: string } {
  return { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}` };
}

/** 400 `invalid_request_error` with `code` and `param`. */
export function invalid(param: string | undefined, message: string, code = "parameter_invalid"): StripeSimError {
  return new StripeSimError(400, {
    type: "invalid_request_error",
    ...withDoc(code),
    message,
    ...(param ? { param } : {}),
  });
}

/** 400 `parameter_missing`. */
export function missing(param: string): StripeSimError {
  return new StripeSimError(400, {
    type: "invalid_request_error",
    ...withDoc("parameter_missing"),
    message: `Missing required param: ${param}.`,
    param,
  });
}

/** 400 `parameter_unknown`. */
export function unknownParam(param: string): StripeSimError {
  return new StripeSimError(400, {
    type: "invalid_request_error",
    ...withDoc("parameter_unknown"),
    message: `Received unknown parameter: ${param}`,
    param,
  });
}

/** 404 `resource_missing` for an object of `kind` (e.g. `checkout.session`). */
export function noSuch(kind: string, id: string, param = "id"): StripeSimError {
  return new StripeSimError(404, {
    type: "invalid_request_error",
    ...withDoc("resource_missing"),
    message: `No such ${kind}: '${id}'`,
    param,
  });
}

/** 404 for a URL the simulator does not serve. */
export function unrecognizedUrl(method: string, path: string): StripeSimError {
  return new StripeSimError(404, {
    type: "invalid_request_error",
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
}

/** 401 for a missing or unknown key (Stripe masks all but the last four characters). */
export function badKey(key: string | null): StripeSimError {
  const message =
    key === null || key === ""
      ? "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')."
      : `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;
  return new StripeSimError(401, { type: "invalid_request_error", message });
}

/** 400 `idempotency_error`: the key was used with other parameters. */
export function idempotencyMismatch(key: string): StripeSimError {
  return new StripeSimError(400, {
    type: "idempotency_error",
    message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
  });
}

/** 400 for an object in the wrong state (`code` e.g. `payment_intent_unexpected_state`). */
export function badState(code: string, message: string, param?: string): StripeSimError {
  return invalid(param, message, code);
}
