/**
 * psp-sim exchange log (`--exchange-log FILE`): one JSON line per API Pix call, token call and
 * callback, appended synchronously (survives a kill), so a contract check can validate requests
 * and responses against the official OpenAPI later. Line shape:
 * `{at, kind: "api"|"token"|"callback", route, request: {method, url, path, headers, body},
 *   response: {status, headers, body}, duration_ms}`; `route` is the OpenAPI path template
 * (`/cob/{txid}`, `/pix`, `{webhookUrl}/pix`, ...). Secrets are redacted: Authorization headers,
 * `client_secret` and `access_token`.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

export interface ExchangeSide {
  method?: string;
  url?: string;
  path?: string;
  status?: number;
  headers: Record<string, string>;
  body: unknown;
}
export interface Exchange {
  at: string;
  kind: "api" | "token" | "callback";
  route: string;
  request: ExchangeSide;
  response: ExchangeSide;
  duration_ms: number;
}

const KEPT_HEADERS = ["content-type", "authorization", "www-authenticate", "retry-after", "x-skip-mtls-checking"];

/** Header subset kept in the log; Authorization reduced to its scheme. */
export function loggedHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const h = headers instanceof Headers ? headers : new Headers(headers);
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = h.get(name);
    if (v !== null) out[name] = name === "authorization" ? `${v.split(" ")[0]} [redacted]` : v;
  }
  return out;
}

/** JSON when it parses (secret fields redacted), the text otherwise, null when empty. */
export function loggedBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text, (k, v) => (k === "client_secret" || k === "access_token" ? "[redacted]" : v));
  } catch {
    return text.replace(/(client_secret=)[^&]*/g, "$1[redacted]");
  }
}

export class ExchangeLog {
  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
  }
  record(e: Exchange): void {
    appendFileSync(this.file, `${JSON.stringify(e)}\n`);
  }
}
