/**
 * Doc-only OpenAPI of each route: `detail: op({...})` gives an operation its success and error
 * responses (schemas from the TypeBox view schemas, with examples), header parameters and
 * security. Nothing here runs per request: Elysia's `response` option would validate every answer,
 * a cost on the hot paths (POST /v1/pix/charges, GET /v1/charges/:id); instead the test harness
 * (test/support/harness.ts) checks every answer the suite sees against the served document, so a
 * view and its schema cannot drift unnoticed. src/http/docs.ts assembles the document.
 */
import { Type, type TSchema } from "@sinclair/typebox";
import { ERROR_CODES, type ErrorType } from "./errors";

/** Which credential an operation takes (the securitySchemes of DOCUMENTATION; `none` = public). */
export type Security = "apikey" | "bearer" | "operator" | "none";

/**
 * A success answer: a JSON schema, a non-JSON body (`content` media type), no body, or a list of
 * JSON/non-JSON forms of one status (content negotiation, e.g. JSON or application/pdf).
 */
export type Answer = TSchema | { content: string; description: string; schema?: object } | { empty: string } | Answer[];

/** A query parameter a handler parses itself (documented only; the handler enforces it). */
export interface QueryParam {
  name: string;
  description: string;
  schema?: object;
  required?: boolean;
}

export interface OpSpec {
  tags: string[];
  summary: string;
  description?: string;
  security: Security;
  /** Success statuses and their answers. */
  ok: Record<number, Answer>;
  /** Error statuses that can really occur (each answers the ErrorEnvelope); 500 is added to every operation. */
  errors: number[];
  /** The route requires the `Idempotency-Key` header (src/http/idempotent.ts). */
  idempotencyKey?: boolean;
  query?: QueryParam[];
  /** Example request body (must pass the route's own body schema: test/docs/examples.test.ts). */
  requestExample?: unknown;
}

const ERROR_TYPES = [...new Set(Object.values(ERROR_CODES).map(([, type]) => type))] as ErrorType[];

/** The one error envelope (interface.md "Errors"; src/http/errors.ts `envelope`). */
const ErrorEnvelopeSchema = Type.Object(
  {
    error: Type.Object(
      {
        type: Type.Unsafe<ErrorType>({ type: "string", enum: ERROR_TYPES }),
        code: Type.Unsafe<string>({
          type: "string",
          enum: Object.keys(ERROR_CODES),
          description: "Stable machine-readable code (src/http/errors.ts).",
        }),
        message: Type.String({ description: "For humans; never echoes the input." }),
        param: Type.Optional(Type.String({ description: "The offending field, query parameter or header." })),
        details: Type.Optional(
          Type.Array(Type.Object({ param: Type.String(), message: Type.String() }, { additionalProperties: false }), {
            description: "One entry per invalid field.",
          }),
        ),
      },
      { additionalProperties: false },
    ),
    request_id: Type.String({
      description: "Same as the X-Request-Id header.",
      examples: ["req_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"],
    }),
  },
  { additionalProperties: false, title: "ErrorEnvelope" },
);

/** Reusable response headers (`components.headers`). */
export const HEADER_COMPONENTS = {
  "X-Request-Id": {
    description: "Id of this request (echoes a sane X-Request-Id sent, else `req_...`).",
    required: true,
    schema: { type: "string" },
  },
  "X-RateLimit-Limit-Minute": {
    description: "Requests allowed per API key per minute (absent when limiting is off).",
    schema: { type: "integer" },
  },
  "X-RateLimit-Remaining-Minute": { description: "Requests left in the current minute.", schema: { type: "integer" } },
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
  "Idempotent-Replayed": {
    description: "`true` when this is the stored answer of an earlier request with the same Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
} as const;

/** Reusable request parameters (`components.parameters`). */
export const PARAMETER_COMPONENTS = {
  RequestId: {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description:
      "Your id for this request (1-200 printable ASCII characters, no spaces), echoed in X-Request-Id and `request_id`; else one is generated.",
    schema: { type: "string", minLength: 1, maxLength: 200, pattern: "^[\\x21-\\x7e]+$" },
  },
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: true,
    description:
      "8-128 printable characters, unique per intended operation. The same key with the same body replays the first answer (header `Idempotent-Replayed: true`); with another body -> 409 `idempotency_key_reused`; while the first is running -> 409 `idempotency_key_in_use` with Retry-After.",
    schema: { type: "string", minLength: 8, maxLength: 128 },
    example: "order-1234-create",
  },
} as const;

const ref = (kind: "schemas" | "headers" | "parameters", name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Codes of the table answered with `status`. */
function codesOf(status: number): string[] {
  return Object.entries(ERROR_CODES)
    .filter(([, [s]]) => s === status)
    .map(([code]) => code);
}

const STATUS_TEXT: Record<number, string> = {
  400: "Invalid request",
  401: "Missing or invalid credential",
  403: "Not allowed",
  404: "Not found",
  405: "Method not allowed for this path (see the Allow header)",
  408: "Body did not arrive in time (COFRE_BODY_TIMEOUT_SECONDS)",
  431: "The URL or the apikey, Authorization or Cookie header is over 8 KiB",
  409: "Conflict",
  413: "Body too large",
  415: "Body not JSON",
  422: "Cannot be processed",
  429: "Rate limited",
  500: "Internal error (safe to retry)",
  503: "Unavailable",
};

function errorResponse(status: number, headers: Record<string, object>): object {
  const codes = codesOf(status);
  if (codes.length === 0) throw new Error(`No error code of src/http/errors.ts answers ${status}.`);
  const code = codes[0] as keyof typeof ERROR_CODES;
  const type = ERROR_CODES[code][1];
  const h = {
    ...headers,
    ...(status === 429 || status === 409 ? { "Retry-After": ref("headers", "Retry-After") } : {}),
  };
  return {
    description: `${STATUS_TEXT[status] ?? "Error"}. Codes: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
    headers: h,
    content: {
      "application/json": {
        schema: ErrorEnvelopeSchema,
        example: {
          error: { type, code, message: `${STATUS_TEXT[status] ?? "Error"}.` },
          request_id: "req_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a",
        },
      },
    },
  };
}

function successResponse(status: number, answer: Answer, headers: Record<string, object>): object {
  if (Array.isArray(answer)) {
    const forms = answer.map((a) => successResponse(status, a, headers) as { description: string; content?: object });
    return {
      description: forms.map((f) => f.description).join(" / "),
      headers,
      content: Object.assign({}, ...forms.map((f) => f.content ?? {})),
    };
  }
  if ("empty" in answer) return { description: answer.empty, headers };
  if ("content" in answer && typeof answer.content === "string") {
    const a = answer as { content: string; description: string; schema?: object };
    return {
      description: a.description,
      headers,
      content: { [a.content]: { schema: a.schema ?? { type: "string", format: "binary" } } },
    };
  }
  const schema = answer as TSchema;
  return {
    description: (schema.description as string | undefined) ?? (status === 201 ? "Created" : "OK"),
    headers,
    content: { "application/json": { schema, example: exampleOf(schema) } },
  };
}

/**
 * The `detail` of a route: tags, summary, security and `responses`, plus header and query
 * parameters and the request example (under `x-cofre-*` keys, merged by src/http/docs.ts, since
 * the generator overwrites `parameters` of routes with path parameters).
 */
export function op(spec: OpSpec): Record<string, unknown> {
  const headers: Record<string, object> = { "X-Request-Id": ref("headers", "X-Request-Id") };
  if (spec.security === "apikey") {
    headers["X-RateLimit-Limit-Minute"] = ref("headers", "X-RateLimit-Limit-Minute");
    headers["X-RateLimit-Remaining-Minute"] = ref("headers", "X-RateLimit-Remaining-Minute");
  }
  const responses: Record<string, object> = {};
  for (const [status, answer] of Object.entries(spec.ok))
    responses[status] = successResponse(
      Number(status),
      answer,
      spec.idempotencyKey ? { ...headers, "Idempotent-Replayed": ref("headers", "Idempotent-Replayed") } : headers,
    );
  // 500 `internal_error` can answer any request (e.g. a failed group COMMIT, src/app.ts), and 431
  // `request_headers_too_large` any request with an oversized URL or auth header (src/app.ts onRequest).
  for (const status of [...new Set([...spec.errors, 431, 500])].sort())
    responses[status] = errorResponse(status, headers);
  const parameters: object[] = [ref("parameters", "RequestId")];
  if (spec.idempotencyKey) parameters.push(ref("parameters", "IdempotencyKey"));
  for (const q of spec.query ?? [])
    parameters.push({
      name: q.name,
      in: "query",
      required: q.required ?? false,
      description: q.description,
      schema: q.schema ?? { type: "string" },
    });
  return {
    tags: spec.tags,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    // The dashboard session cookie is a third way into the apikey and bearer shapes (docs.ts `session`).
    security:
      spec.security === "none"
        ? []
        : spec.security === "operator"
          ? [{ operator: [] }]
          : [{ [spec.security]: [] }, { session: [] }],
    responses,
    "x-cofre-parameters": parameters,
    ...(spec.requestExample !== undefined ? { "x-cofre-request-example": spec.requestExample } : {}),
  };
}

/** Error statuses of every authenticated JSON route: 401 bad credential (+ 429 for apikey). */
export const AUTH_ERRORS = { apikey: [401, 429], bearer: [401], operator: [401], none: [] } as const;
/** Error statuses of a route with a JSON body: 400 validation, 408 body too slow, 413 too large, 415 not JSON. */
export const BODY_ERRORS = [400, 408, 413, 415] as const;

/**
 * A plausible example value of a JSON schema: its first `examples` entry, const, first enum
 * value, else built from the type (objects with every property, arrays with one item).
 * test/docs/openapi.test.ts checks that every example validates against its schema.
 */
function exampleOf(schema: unknown): unknown {
  if (!schema || typeof schema !== "object") return null;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.anyOf)) {
    const first = (s.anyOf as Record<string, unknown>[]).find((x) => x.type !== "null") ?? s.anyOf[0];
    return exampleOf(first);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((s.properties as Record<string, unknown>) ?? {})) out[k] = exampleOf(v);
      return out;
    }
    case "array":
      return [exampleOf(s.items)];
    case "string":
      if (s.format === "date-time") return "2026-11-20T12:00:00.000Z";
      if (s.format === "date") return "2026-11-20";
      if (s.format === "uri") return "https://cofre.example.com/";
      return "string";
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 0;
    case "boolean":
      return true;
    case "null":
      return null;
  }
  return {};
}
