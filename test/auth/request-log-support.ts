/** Helpers of the request-log retention tests (test/auth/request-log-retention*.test.ts). */
import { expect } from "bun:test";
import type { Harness } from "../support/harness";
import { loginToken } from "./support";

const HOUR = 3600;

/** The paths `GET /v1/request-logs` lists, newest first (asserts 200). */
export async function paths(h: Harness, token: string): Promise<string[]> {
  const r = await h.call("GET", "/v1/request-logs?limit=100", { bearer: token });
  expect(r.status).toBe(200);
  return r.body.data.map((e: { path: string }) => e.path);
}

/** Calls made 31 days ago and now; then the prune runs. */
export async function oldAndNew(h: Harness) {
  const a = await h.seedAccount();
  expect((await h.call("GET", "/v1/ping?old=1", { key: a.testKey })).status).toBe(200);
  expect((await h.call("GET", "/v1/ping?old=2", { key: a.testKey })).status).toBe(200);
  h.clock.advance(31 * 24 * HOUR);
  const token = await loginToken(h, a.email, a.password); // dashboard tokens last 12 h
  expect((await h.call("GET", "/v1/ping?new=1", { key: a.testKey })).status).toBe(200);
  expect(await paths(h, token)).toHaveLength(3);
  h.clock.advance(HOUR); // the hourly prune falls due
  await h.deps.jobs.drain();
  return { a, token };
}
