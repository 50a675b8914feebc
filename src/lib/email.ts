/** Email address validation (validator's isEmail) that never throws on hostile text. */
import isEmail from "validator/lib/isEmail";

type IsEmailOptions = Parameters<typeof isEmail>[1];

/**
 * True when `value` is a valid email address per validator's `isEmail` (RFC 5322 subset) with
 * `options`. False, never a throw, for a string that is not well-formed Unicode: isEmail runs
 * `encodeURI` on it, which throws URIError on a lone UTF-16 surrogate (a 500 before this wrapper).
 */
export function isEmailAddress(value: string, options?: IsEmailOptions): boolean {
  if (!value.isWellFormed()) return false;
  try {
    return isEmail(value, options);
  } catch {
    return false;
  }
}
