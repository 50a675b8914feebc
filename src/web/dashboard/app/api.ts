/**
 * The dashboard's only way to the server: the JSON API with the session cookie (same origin),
 * `Cofre-Mode` on every request and `X-CSRF-Token` on every state-changing one.
 */
export type Mode = "test" | "live";

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const state = { csrf: "", mode: "test" as Mode };

export function setCsrf(token: string): void {
  state.csrf = token;
}
export function setMode(mode: Mode): void {
  state.mode = mode;
}
export function currentMode(): Mode {
  return state.mode;
}

/**
 * One JSON request, answering `T` (a wire.ts type); throws ApiFailure with the envelope's code on any non-2xx answer.
 */
export async function api<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  extra: Record<string, string> = {},
): Promise<T> {
  const headers: Record<string, string> = { "cofre-mode": state.mode, ...extra };
  if (method !== "GET") headers["x-csrf-token"] = state.csrf;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new ApiFailure(res.status, json?.error?.code ?? "error", json?.error?.message ?? res.statusText);
  return json as T;
}

/** A fresh idempotency key (one per refund attempt; reused when that attempt is retried). */
export function newIdempotencyKey(prefix: string): string {
  return `${prefix}-${crypto.randomUUID()}`;
}
