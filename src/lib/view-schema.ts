/**
 * Building blocks of the response schemas that sit beside the view serializers
 * (src/domain/<group>/views.ts): TypeBox, so one object is both the serializer's return type
 * (`Static<typeof XSchema>`) and its OpenAPI schema. Response objects are closed allowlists
 * (`additionalProperties: false`, every key required unless it is really optional).
 */
import {
  Type,
  type TSchema,
  type TProperties,
  type ObjectOptions,
  type StringOptions,
  type IntegerOptions,
} from "@sinclair/typebox";

export { Type };
export type { Static, TSchema } from "@sinclair/typebox";

/** A closed response object named `title` (the OpenAPI component name). */
export const View = <T extends TProperties>(title: string, props: T, opts: ObjectOptions = {}) =>
  Type.Object(props, { additionalProperties: false, title, ...opts });

/** A closed anonymous object (nested parts of a view). */
export const Closed = <T extends TProperties>(props: T, opts: ObjectOptions = {}) =>
  Type.Object(props, { additionalProperties: false, ...opts });

/** `T | null`. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of the literal strings of `values`. */
export const OneOf = <const V extends readonly string[]>(values: V, opts: { description?: string } = {}) =>
  Type.Unsafe<V[number]>({ type: "string", enum: [...values], ...opts });

/** ISO 8601 UTC timestamp (`2026-11-20T12:00:00.000Z`). */
export const DateTime = (opts: StringOptions = {}) =>
  Type.String({ format: "date-time", examples: ["2026-11-20T12:00:00.000Z"], ...opts });

/** An amount in the minor unit (centavos for BRL). */
export const Money = (opts: IntegerOptions = {}) =>
  Type.Integer({ description: "Minor units (centavos for BRL).", examples: [1500], ...opts });

/** A free-form JSON object (metadata). */
export const JsonObject = (opts: ObjectOptions = {}) =>
  Type.Record(Type.String(), Type.Unknown(), { examples: [{ order_id: "1234" }], ...opts });

/** A currency code as sent (ISO 4217 or a 3-8 character code such as USDT). */
export const Currency = (opts: StringOptions = {}) => Type.String({ examples: ["BRL"], ...opts });

/** A URL. */
export const Url = (opts: StringOptions = {}) => Type.String({ format: "uri", ...opts });
