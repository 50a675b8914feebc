/** Helpers of the dashboard tests: a cookie-session client over `app.handle` and member seeding. */
import { expect } from "bun:test";
import type { Harness, SeededAccount } from "../support/harness";
import { addMember, loginToken } from "../auth/support";

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** One request through the app with explicit headers (no OpenAPI check: some answers are the session's 403s). */
export async function send(
  h: Harness,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const res = await h.app.handle(new Request(`http://localhost${path}`, init));
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body: parsed };
}

/** A logged-in dashboard browser: the cookie, the CSRF token and a request helper. */
export interface Browserless {
  cookie: string;
  csrf: string;
  setCookie: string;
  session: any;
  /** A request with the session cookie; `csrf: false` leaves the token out, a string sends that one. */
  call: (
    method: string,
    path: string,
    opts?: { body?: unknown; csrf?: boolean | string; mode?: string; headers?: Record<string, string> },
  ) => Promise<Answer>;
}

/** Logs in through POST /v1/auth/session (asserts 200) and returns the session's client. */
export async function dashboardLogin(h: Harness, email: string, password: string): Promise<Browserless> {
  const r = await send(h, "POST", "/v1/auth/session", {}, { email, password });
  expect(r.status).toBe(200);
  const setCookie = r.headers.get("set-cookie")!;
  const cookie = setCookie.split(";")[0]!;
  const csrf = r.body.csrf_token as string;
  const call: Browserless["call"] = (method, path, opts = {}) => {
    const headers: Record<string, string> = { cookie, ...opts.headers };
    if (opts.csrf !== false) headers["x-csrf-token"] = typeof opts.csrf === "string" ? opts.csrf : csrf;
    if (opts.mode) headers["cofre-mode"] = opts.mode;
    return send(h, method, path, headers, opts.body);
  };
  return { cookie, csrf, setCookie, session: r.body, call };
}

/** A member of `role` added by the owner of `a`, logged in to the dashboard. */
export async function dashboardMember(h: Harness, a: SeededAccount, role: string): Promise<Browserless> {
  const owner = await loginToken(h, a.email, a.password);
  const m = await addMember(h, owner, role);
  return dashboardLogin(h, m.email, m.password);
}
