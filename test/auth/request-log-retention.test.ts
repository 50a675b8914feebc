/** Request-log retention: the hourly prune drops rows older than COFRE_REQUEST_LOG_RETENTION_DAYS. */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { oldAndNew, paths } from "./request-log-support";

describe("request log retention", () => {
  test("rows older than 30 days (the default) are pruned within the hour; newer ones stay", async () => {
    const h = createHarness();
    expect(h.deps.config.requestLogRetentionDays).toBe(30);
    const { token } = await oldAndNew(h);
    expect(await paths(h, token)).toEqual(["/v1/ping"]);
  });

  test("0 days keeps every row", async () => {
    const h = createHarness({ requestLogRetentionDays: 0 });
    const { token } = await oldAndNew(h);
    expect(await paths(h, token)).toHaveLength(3);
  });
});
