/** Email address validation (validator's isEmail) that never throws on hostile text, and the one e-mail normaliser. */
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

/** Characters that render as nothing or only steer direction: zero-width, soft hyphen, BOM, bidi controls. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu;

/**
 * The one form of an e-mail address Cofre compares and stores (issue 30 §5): Unicode NFKC (a
 * full-width "ｖ" is "v"), without zero-width, bidi-control and other invisible characters,
 * trimmed, lower-cased. Members' e-mails (uniqueness and login) and payout destination e-mail
 * keys use it, so two spellings that look alike are one address.
 */
export function normalizeEmail(email: string): string {
  return email.replace(INVISIBLE, "").normalize("NFKC").replace(INVISIBLE, "").trim().toLowerCase();
}
