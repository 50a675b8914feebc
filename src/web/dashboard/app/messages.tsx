/** @jsxImportSource preact */
/**
 * The page-level messages every dashboard page shows: an error (`role="alert"`, announced at once
 * by screen readers) and a notice of a completed action (`role="status"`, announced politely).
 * Each renders nothing when its text is empty; the text is rendered as text, never as HTML.
 */

/** The error of the last failed action or load, if any. */
export function Alert({ text }: { text: string | null | undefined | false }) {
  return text ? (
    <p role="alert" class="error">
      {text}
    </p>
  ) : null;
}

/** The notice of the last completed action, if any. */
export function Notice({ text }: { text: string | null | undefined | false }) {
  return text ? (
    <p role="status" class="notice">
      {text}
    </p>
  ) : null;
}
