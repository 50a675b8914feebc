/**
 * Typed results of one call to a PSP of the BCB API Pix v2 (client.ts). Error texts are built
 * from the PSP's answer (RFC 7807 `title`/`detail`/`violacoes` of the API, RFC 6749 5.2
 * `error`/`error_description` of the token endpoint), truncated, and never carry a secret of ours.
 */

/** One `violacoes[]` entry of an API Pix problem (OpenAPI `components.schemas` problem bodies). */
export interface Violacao {
  razao?: string;
  propriedade?: string;
  valor?: string;
}

export type PspResult<T = unknown> =
  /** 2xx: `body` is the parsed JSON, or null for an empty body. */
  | { kind: "ok"; status: number; body: T }
  /** Any other HTTP answer of the API (or a 5xx of the token endpoint). `message`: `<status> <title>: <detail>`. */
  | {
      kind: "http_error";
      status: number;
      type: string | null;
      title: string | null;
      detail: string | null;
      violacoes: Violacao[];
      message: string;
    }
  /** The token endpoint refused our credentials (4xx), or the API still answered 401 after one fresh token. */
  | { kind: "auth_failed"; status: number; error: string | null; message: string }
  /** No answer in time: `connect` = no response headers within the connect timeout, `total` = the whole exchange. */
  | { kind: "timeout"; phase: "connect" | "total"; message: string }
  /**
   * The exchange failed below HTTP: DNS, refused connection, TLS handshake (e.g. a certificate the PSP does not
   * accept).
   */
  | { kind: "network"; message: string };

export type PspFailure = Exclude<PspResult, { kind: "ok" }>;

/** Longest PSP text kept in a message (a PSP may answer an HTML page). */
const MAX_TEXT = 300;

/** `text` on one line, at most MAX_TEXT characters. */
export function clip(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > MAX_TEXT ? `${one.slice(0, MAX_TEXT)}...` : one;
}

/** `text` parsed when it is a JSON object, else {}. */
function objectOf(text: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
  } catch {}
  return {};
}

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/** The http_error of an API answer: its RFC 7807 fields when the body is a problem, else the raw text. */
export function problemOf(status: number, text: string): Extract<PspResult, { kind: "http_error" }> {
  const body = objectOf(text);
  // Efí answers its own routes' errors as `{nome, mensagem}` (e.g. `documento_bloqueado`): read as type and title.
  const title = str(body.title) ?? str(body.mensagem);
  const detail = str(body.detail);
  const violacoes = Array.isArray(body.violacoes)
    ? (body.violacoes as Violacao[]).filter((v) => v && typeof v === "object")
    : [];
  const why = [title, detail].filter(Boolean).join(": ") || clip(text) || "(empty body)";
  const extra = violacoes.length
    ? ` (${violacoes.map((v) => [v.propriedade, v.razao].filter(Boolean).join(": ")).join("; ")})`
    : "";
  return {
    kind: "http_error",
    status,
    type: str(body.type) ?? str(body.nome),
    title,
    detail,
    violacoes,
    message: clip(`${status} ${why}${extra}`),
  };
}

/** The auth_failed of a token endpoint answer: RFC 6749 5.2 `error` and `error_description` when present. */
export function oauthFailureOf(status: number, text: string): Extract<PspResult, { kind: "auth_failed" }> {
  const body = objectOf(text);
  const error = str(body.error);
  const why =
    [error, str(body.error_description) ?? str(body.detail) ?? str(body.title)].filter(Boolean).join(": ") ||
    clip(text) ||
    "(empty body)";
  return { kind: "auth_failed", status, error, message: clip(`${status} ${why}`) };
}
