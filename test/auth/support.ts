/** Helpers for the auth, accounts and api-keys tests: login, members, an apikey probe route. */
import { Elysia } from "elysia";
import { expect } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import type { Config } from "../../src/config";
import { apiKeyAuth } from "../../src/http/plugins/api-key-auth";

/** Path of a probe route (test app only) that answers 200 with the caller's key facts. */
export const PROBE = "/v1/__probe";

/** A harness with the apikey probe route mounted. */
export function authHarness(config: Partial<Config> = {}): Harness {
  const h = createHarness(config);
  (h.app as unknown as Elysia).use(
    new Elysia()
      .use(apiKeyAuth(h.deps))
      .get(PROBE, ({ auth }) => ({ accountId: auth.accountId, mode: auth.mode, livemode: auth.livemode })),
  );
  return h;
}

/** Logs in and returns the access token (asserts 200). */
export async function loginToken(h: Harness, email: string, password: string): Promise<string> {
  const r = await h.call("POST", "/v1/auth/login", { body: { email, password } });
  expect(r.status).toBe(200);
  return r.body.access_token;
}

export interface Member {
  id: string;
  email: string;
  password: string;
  role: string;
  token: string;
}

let n = 0;
/** Adds a member of `role` to the account of `ownerToken` and logs them in. */
export async function addMember(h: Harness, ownerToken: string, role: string): Promise<Member> {
  const email = `${role.toLowerCase()}-${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "member password 123";
  const r = await h.call("POST", "/v1/account/members", { bearer: ownerToken, body: { email, password, role } });
  expect(r.status).toBe(201);
  return { id: r.body.id, email, password, role, token: await loginToken(h, email, password) };
}

/** An account with its owner logged in. */
export async function seedWithToken(
  h: Harness,
  opts: Parameters<Harness["seedAccount"]>[0] = {},
): Promise<SeededAccount & { token: string }> {
  const a = await h.seedAccount(opts);
  return { ...a, token: await loginToken(h, a.email, a.password) };
}

/** Issues a key through the API (asserts 201) and returns the response body. */
export async function issue(h: Harness, token: string, body: Record<string, unknown> = {}) {
  const r = await h.call("POST", "/v1/api-keys", { bearer: token, body });
  expect(r.status).toBe(201);
  return r.body as {
    id: string;
    apiKey: string;
    fingerprint: string;
    prefix: string;
    label: string;
    createdAt: string;
    mode: string;
  };
}

/** Every string in a JSON-able value, flattened (to scan responses for secrets). */
export function allText(v: unknown): string {
  return JSON.stringify(v);
}
