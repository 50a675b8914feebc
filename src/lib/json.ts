/** JSON helpers for untrusted request bodies. */

/** Deepest nesting accepted in a request body; deeper bodies are refused before parsing. */
export const MAX_JSON_DEPTH = 32;

/**
 * True when `text` nests arrays/objects deeper than `max` levels (brackets inside strings do not
 * count). One linear pass, so a hostile body cannot overflow the stack of later parsing and
 * validation.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}
