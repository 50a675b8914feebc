/**
 * Route-level `transform` hook for JSON object bodies, run before schema validation:
 * - a body that is not a JSON object (array, string, number, null) -> 400 `invalid_request`;
 * - unknown fields -> 400 `invalid_request` naming the field (Elysia's default `normalize`
 *   silently strips properties that a `StrictObject` does not list instead of failing);
 * - an array or object where the schema wants a scalar -> 400 naming the field, before the
 *   validator walks it (a deeply nested value overflows the stack of Elysia's error mapper).
 * Usage: `{ body: schema, transform: rejectUnknownKeys(schema) }`.
 */
import type { TObject, TSchema } from "@sinclair/typebox";
import { ApiError, invalidParam } from "./errors";

const SCALAR_TYPES = new Set(["string", "integer", "number", "boolean", "null"]);

/** True when every value the schema accepts is a JSON scalar. */
function isScalarSchema(s: TSchema): boolean {
  if (typeof s.type === "string") return SCALAR_TYPES.has(s.type);
  if (Array.isArray(s.anyOf)) return s.anyOf.every((x: TSchema) => isScalarSchema(x));
  return s.const !== undefined && (s.const === null || typeof s.const !== "object");
}

export function rejectUnknownKeys(schema: TObject) {
  const props = schema.properties as Record<string, TSchema>;
  const allowed = new Set(Object.keys(props));
  const scalar = new Set(Object.keys(props).filter((k) => isScalarSchema(props[k]!)));
  return ({ body }: { body: unknown }) => {
    if (body === undefined) return;
    if (!body || typeof body !== "object" || Array.isArray(body)) throw invalidParam("body", "The request body must be a JSON object.");
    const unknown = Object.keys(body).filter((k) => !allowed.has(k));
    if (unknown.length > 0)
      throw new ApiError("invalid_request", `Unknown field ${unknown[0]}.`, {
        ...(unknown.length === 1 ? { param: unknown[0] } : {}),
        details: unknown.map((param) => ({ param, message: "Unknown field." })),
      });
    for (const [k, v] of Object.entries(body))
      if (scalar.has(k) && v !== null && typeof v === "object") throw invalidParam(k, `${k} must be a ${props[k]!.type ?? "scalar"} value.`);
  };
}
