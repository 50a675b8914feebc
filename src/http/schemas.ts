/**
 * Strict schema pieces shared by routes. Elysia's `t.Integer`/`t.Numeric` coerce strings
 * ("1e3" -> 1000); money and counts use TypeBox's own `Type.Integer`, which does not (DESIGN.md).
 */
import { Type, type TSchema, type IntegerOptions, type SchemaOptions, type StringOptions } from "@sinclair/typebox";

/** A JSON integer, never a string or a fraction. */
export const StrictInt = (opts: IntegerOptions = {}) => Type.Integer(opts);

/** An amount in the minor unit (centavos for BRL): integer > 0, at most 10^12. */
export const Amount = (opts: IntegerOptions = {}) =>
  Type.Integer({
    minimum: 1,
    maximum: 1_000_000_000_000,
    description: "Minor units (centavos for BRL): integer 1 to 10^12.",
    ...opts,
  });

/** A JSON boolean (never "true"). */
export const StrictBool = (opts: SchemaOptions = {}) => Type.Boolean(opts);

/** A string with bounds. */
export const Str = (opts: StringOptions = {}) => Type.String(opts);

/** A body object that rejects unknown properties. */
export const StrictObject = <T extends Record<string, TSchema>>(props: T) =>
  Type.Object(props, { additionalProperties: false });

/** A free-form metadata object. */
export const Metadata = () => Type.Record(Type.String(), Type.Unknown());

export { Type };
