/**
 * Oversized URLs and headers (issue 30 §4): the URL and each of the apikey, Authorization and
 * Cookie headers over 8 KiB get 431 `request_headers_too_large` in the one error envelope, from a
 * real `serve` process started the way `bun run start` starts it (package.json, whose
 * `--max-http-header-size` lets such requests reach the app); only a header block over that
 * limit (256 KiB) still gets Bun's own bare 431.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json";
import { createHarness } from "../support/harness";
import { startServer, type RunningServer } from "./process";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "cofre-headers-"));
let srv: RunningServer;

beforeAll(async () => {
  expect(pkg.scripts.start).toStartWith("bun ");
  srv = await startServer(pkg.scripts.start.split(/\s+/), { dataDir: dir, cwd: ROOT, timeoutMs: 20_000 });
});
afterAll(async () => {
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const MESSAGE =
  "The request's URL or headers are too large: the URL and each of the apikey, Authorization and Cookie headers may be at most 8192 bytes.";

async function send(path: string, headers: Record<string, string> = {}) {
  const r = await fetch(`${srv.base}${path}`, { headers });
  const text = await r.text();
  return { status: r.status, type: r.headers.get("content-type"), requestId: r.headers.get("x-request-id"), text };
}

describe("oversized headers against a served process", () => {
  test("a 100 kB apikey is 431 request_headers_too_large in the error envelope", async () => {
    const r = await send("/v1/ping", { apikey: "a".repeat(100_000) });
    expect([r.status, r.type]).toEqual([431, "application/json"]);
    expect(JSON.parse(r.text)).toEqual({
      error: { type: "invalid_request_error", code: "request_headers_too_large", message: MESSAGE },
      request_id: r.requestId,
    });
  });

  test("a 16 kB query is 431 request_headers_too_large in the error envelope", async () => {
    const r = await send(`/v1/ping?q=${"x".repeat(16_000)}`);
    expect([r.status, JSON.parse(r.text).error.code]).toEqual([431, "request_headers_too_large"]);
  });

  test("a 100 kB bearer token and a 100 kB cookie are refused the same way", async () => {
    for (const headers of [
      { authorization: `Bearer ${"b".repeat(100_000)}` },
      { cookie: `cofre_session=${"c".repeat(100_000)}` },
    ] as Record<string, string>[]) {
      const r = await send("/v1/account", headers);
      expect([r.status, JSON.parse(r.text).error.code]).toEqual([431, "request_headers_too_large"]);
    }
  });

  test("an apikey just under the limit still reaches authentication (401)", async () => {
    const r = await send("/v1/ping", { apikey: "a".repeat(8000) });
    expect([r.status, JSON.parse(r.text).error.code]).toEqual([401, "unauthorized"]);
  });

  test("a header block over Bun's own limit (300 kB) is still Bun's bare 431: what remains outside the envelope", async () => {
    const r = await send("/v1/ping", { "x-padding": "p".repeat(300_000) });
    expect([r.status, r.text]).toEqual([431, ""]);
  });
});

describe("oversized headers through the app", () => {
  test("the same checks hold in app.handle (both backends), before any route runs", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const big = await h.call("GET", "/v1/ping", { key: `${a.testKey}${"x".repeat(9000)}` });
    expect([big.status, big.body.error.code, big.body.error.message]).toEqual([
      431,
      "request_headers_too_large",
      MESSAGE,
    ]);
    expect((await h.call("GET", "/v1/ping", { key: a.testKey })).status).toBe(200);
  });
});
