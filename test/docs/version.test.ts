/**
 * One contract version everywhere (issue 29; interface.md "Versioning"): the reference's
 * `info.version`, the `api_version` of events and webhook envelopes and the README name the same
 * date, defined once in src/lib/api-version.ts.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { API_VERSION } from "../../src/lib/api-version";
import { API_VERSION as EMITTED } from "../../src/domain/events/emit";
import { createHarness } from "../support/harness";

describe("the contract version", () => {
  test("is the date interface.md names for the current wire format", () => {
    expect(API_VERSION).toBe("2026-10-12");
    expect(EMITTED).toBe(API_VERSION);
  });

  test("the reference, an event's envelope and the README all carry it", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    expect((await h.call("GET", "/docs/json")).body.info.version).toBe(API_VERSION);
    const c = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "Idempotency-Key": `version-${crypto.randomUUID()}` },
      body: { amount: 100 },
    });
    expect(c.status).toBe(201);
    const events = await h.call("GET", "/v1/events?limit=10", { key: a.testKey });
    expect(events.status).toBe(200);
    expect(events.body.data.length).toBeGreaterThan(0);
    for (const e of events.body.data) expect(e.api_version).toBe(API_VERSION);
    const readme = readFileSync(join(import.meta.dir, "..", "..", "README.md"), "utf8");
    expect(readme).toContain(`Contract version: \`${API_VERSION}\``);
    expect(readme).not.toContain("v2026-11-01");
  });
});
