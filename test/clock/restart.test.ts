/**
 * The sandbox test clock holds across a restart of `serve` (extensions.md
 * `POST /v1/test_helpers/clock/advance`: it moves the service clock for everyone). SQLite keeps the
 * offset in `shared_state` (src/store/sqlite/clock-offset.ts), PostgreSQL too
 * (src/store/pg/clock-share.ts); `cofre import-sqlite` copies that row. The two runs share the data
 * folder's database (serverEnv), on either backend. The clock is moved to 23:30 in São Paulo
 * (02:30 UTC of the next UTC day), a few days ahead of the wall clock, whatever the hour the test
 * runs: a restart that fell back to the wall clock reads "today" as another São Paulo day.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saoPauloDate } from "../../src/lib/calendar";
import { startServer, type RunningServer } from "../foundation/process";
import { serverEnv } from "../support/backend";

const ROOT = join(import.meta.dir, "..", "..");
const ENV = { COFRE_TEST_CLOCK: "1", LOG_LEVEL: "info" };
const dir = mkdtempSync(join(tmpdir(), "cofre-clock-restart-"));
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** JSON request with the test key `key`; status and parsed body. */
async function call(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { apikey: key, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Epoch ms of 02:30 UTC (23:30 in São Paulo) on the third UTC day after the wall clock's. */
function lateEveningAhead(): number {
  const d = new Date();
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 3, 2, 30);
}

describe("the test clock across a restart of serve", () => {
  test("a restarted instance resumes the advanced clock: a payment made at 23:30 in São Paulo still counts as today", async () => {
    const init = Bun.spawnSync(
      ["bun", "src/main.ts", "init", "--email", "clock@example.com", "--password", "a long passphrase", "--test-key"],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...serverEnv(dir) },
      },
    );
    expect(init.exitCode).toBe(0);
    const key: string = JSON.parse(init.stdout.toString().trim().split("\n").pop()!).test_api_key;

    server = await startServer(["bun", "src/main.ts", "serve"], {
      dataDir: dir,
      cwd: ROOT,
      env: ENV,
      timeoutMs: 20_000,
    });
    const target = lateEveningAhead();
    const day = saoPauloDate(target);
    const moved = await call(server.base, key, "POST", "/v1/test_helpers/clock/advance", {
      seconds: Math.ceil((target - Date.now()) / 1000),
    });
    expect(moved.status).toBe(200);
    const movedTo = Date.parse(moved.body.now);
    expect(saoPauloDate(movedTo)).toBe(day);
    const c = await call(
      server.base,
      key,
      "POST",
      "/v1/pix/charges",
      { amount: 1234, description: "late evening" },
      { "idempotency-key": "clock-restart-1" },
    );
    expect(c.status).toBe(201);
    expect((await call(server.base, key, "POST", `/v1/test_helpers/charges/${c.body.id}/pay`, {})).status).toBe(200);
    const expected = {
      todayTransactions: 1,
      todayVolumeByCurrency: { BRL: 1234 },
      dailyVolume: [{ date: day, currencies: { BRL: 1234 } }],
    };
    const stats = async () => {
      const r = await call(server!.base, key, "GET", "/v1/payments/stats?days=1");
      expect(r.status).toBe(200);
      return {
        todayTransactions: r.body.todayTransactions,
        todayVolumeByCurrency: r.body.todayVolumeByCurrency,
        dailyVolume: r.body.dailyVolume,
      };
    };
    expect(await stats()).toEqual(expected);
    expect(await server.stop()).toBe(0);
    server = undefined;

    server = await startServer(["bun", "src/main.ts", "serve"], {
      dataDir: dir,
      cwd: ROOT,
      env: ENV,
      timeoutMs: 20_000,
    });
    expect(await stats()).toEqual(expected);
    const again = await call(server.base, key, "POST", "/v1/test_helpers/clock/advance", { seconds: 1 });
    expect(again.status).toBe(200);
    expect(Date.parse(again.body.now)).toBeGreaterThanOrEqual(movedTo + 1000);
  }, 60_000);
});
