// own-database: fills a PostgreSQL database of its own from a SQLite one (run once, by `bun run test`)
/**
 * `cofre import-sqlite DIR` (src/cli/import-sqlite.ts, src/store/pg/import-sqlite.ts): a SQLite
 * instance takes charges, payments, refunds, a MED case, webhooks and logins; after the import a
 * PostgreSQL instance answers every read as the SQLite one did, keeps the old API key, dashboard
 * token and idempotency keys working, takes new payments, and `ledger verify` is clean. A second
 * import, and one whose Pix secrets would not open, change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { Database } from "bun:sqlite";
import { startServer, type RunningServer } from "../foundation/process";
import { api } from "../multi/support";
import { pgDatabase, type PgDatabase } from "../support/pg";
import { createDeps } from "../../src/deps";
import { sealSecrets } from "../../src/domain/pix-provider/secrets";

const ROOT = join(import.meta.dir, "..", "..");
const OWNER = { email: "owner@import.example", password: "a long passphrase to import" };
const OPERATOR = "import_operator_token_0123456789abcdef";
const ENV = {
  COFRE_PUBLIC_URL: "http://pay.import.example",
  COFRE_TEST_CLOCK: "1",
  COFRE_WEBHOOK_ALLOW_PRIVATE: "1",
  COFRE_OPERATOR_TOKEN: OPERATOR,
};

/** `bun src/main.ts <args>` with the test's environment plus `env`; exit code and output. */
function cofre(args: string[], env: Record<string, string>) {
  const p = Bun.spawnSync(["bun", "src/main.ts", ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...ENV, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/** Reads a merchant sees, by name: what must not change across the import. */
async function reads(base: string, key: string, token: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, path, auth] of [
    ["charges", "/v1/charges", "key"],
    ["payments", "/v1/payments", "key"],
    ["balance", "/v1/wallets/balance", "key"],
    ["stats", "/v1/payments/stats", "key"],
    ["metrics", "/v1/payments/metrics", "key"],
    ["med", "/v1/med/cases", "key"],
    ["endpoints", "/v1/webhooks/endpoints", "key"],
    ["deliveries", "/v1/webhooks/deliveries", "key"],
    ["keys", "/v1/api-keys", "bearer"],
    ["account", "/v1/account", "bearer"],
    ["members", "/v1/account/members", "bearer"],
    ["audit", "/v1/account/audit-log", "bearer"],
  ] as const) {
    const r = await api(base, "GET", path, auth === "key" ? { key } : { bearer: token });
    expect([name, r.status]).toEqual([name, 200]);
    out[name] = r.body;
  }
  return out;
}

let dir: string;
let db: PgDatabase;
let server: RunningServer | undefined;
let key = "";
let token = "";
let before: Record<string, unknown>;
let logIds: string[] = [];
/** Rows of request-log.db, the synthetic old ones included. */
let logRows = 0;
const OLD_LOGS = 7_000;
/** The answers of the creates, by index. */
const created: unknown[] = [];
/** The SQLite instance's test clock after its advance (epoch ms). */
let sqliteNow = 0;
const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cofre-import-"));
  const init = cofre(["init", "--email", OWNER.email, "--password", OWNER.password, "--test-key"], {
    COFRE_DATA_DIR: dir,
  });
  expect(init.code).toBe(0);
  key = JSON.parse(init.stdout.trim().split("\n").pop()!).test_api_key;
  server = await startServer(["bun", "src/main.ts", "serve"], { dataDir: dir, cwd: ROOT, env: ENV });
  const base = server.base;
  token = (await api(base, "POST", "/v1/auth/login", { body: OWNER })).body.access_token;
  expect(
    (
      await api(base, "POST", "/v1/webhooks/endpoints", {
        key,
        body: { url: `http://127.0.0.1:${receiver.port}/hook`, events: ["charge.paid", "charge.created"] },
      })
    ).status,
  ).toBe(201);
  for (let i = 0; i < 4; i++) {
    const c = await api(base, "POST", "/v1/pix/charges", {
      key,
      body: { amount: 1000 + i, description: `before ${i}` },
      headers: { "idempotency-key": `import-${i}` },
    });
    expect(c.status).toBe(201);
    created.push(c.body);
    if (i === 0) continue;
    expect((await api(base, "POST", `/v1/test_helpers/charges/${c.body.id}/pay`, { key, body: {} })).status).toBe(200);
    if (i === 2)
      expect(
        (
          await api(base, "POST", `/v1/payments/${c.body.id.replace(/^ch_/, "")}/refund`, {
            key,
            body: { idempotencyKey: "import-refund", amount: 300 },
          })
        ).status,
      ).toBe(201);
    if (i === 3)
      expect((await api(base, "POST", `/v1/test_helpers/charges/${c.body.id}/med`, { key, body: {} })).status).toBe(
        201,
      );
  }
  const advanced = await api(base, "POST", "/v1/test_helpers/clock/advance", { key, body: { seconds: 3600 } });
  expect(advanced.status).toBe(200);
  sqliteNow = Date.parse(advanced.body.now);
  before = await reads(base, key, token);
  logIds = (await api(base, "GET", "/v1/request-logs?limit=100", { bearer: token })).body.data.map(
    (r: { id: string }) => r.id,
  );
  expect(logIds.length).toBeGreaterThan(10);
  expect(await server.stop()).toBe(0);
  server = undefined;
  // An older month of the request log, more rows than one INSERT statement takes (3,000 of its 10 columns).
  const logs = new Database(join(dir, "request-log.db"));
  const insert = logs.query(
    "insert into request_logs (id, account_id, livemode, method, path, status, request_id, key_fingerprint, duration_ms, created_at) values (?, 'acct_old', 0, 'GET', '/v1/ping', 200, ?, 'f', 1, ?)",
  );
  logs.transaction(() => {
    for (let i = 0; i < OLD_LOGS; i++) insert.run(`req_old_${i}`, `old-${i}`, Date.parse("2026-10-01T00:00:00Z") + i);
  })();
  logRows = (logs.query("select count(*) as n from request_logs").get() as { n: number }).n;
  logs.close();
  db = await pgDatabase({ empty: true });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  receiver.stop(true);
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("cofre import-sqlite", () => {
  test("copies every row into the empty PostgreSQL database and reports the counts", () => {
    const r = cofre(["import-sqlite", dir], { COFRE_DATA_DIR: dir, COFRE_DATABASE_URL: db.url });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    const report = JSON.parse(r.stdout.trim());
    expect(report.imported).toBe(true);
    expect(report.rows).toMatchObject({
      accounts: 1,
      users: 1,
      transactions: 4,
      refunds: 1,
      med_cases: 1,
      webhook_endpoints: 1,
    });
    expect(report.rows.request_logs).toBe(logRows);
    expect(logRows).toBeGreaterThan(OLD_LOGS + logIds.length - 1);
    expect(report.rows.ledger_lines).toBeGreaterThan(0);
  }, 60_000);

  test("a PostgreSQL instance then answers every read as the SQLite one did, with the same key and dashboard token", async () => {
    server = await startServer(["bun", "src/main.ts", "serve"], {
      dataDir: dir,
      cwd: ROOT,
      env: { ...ENV, COFRE_DATABASE_URL: db.url },
    });
    const after = await reads(server.base, key, token);
    for (const name of Object.keys(before)) expect([name, after[name]]).toEqual([name, before[name]]);
    const logs = (await api(server.base, "GET", "/v1/request-logs?limit=100", { bearer: token })).body.data.map(
      (r: { id: string }) => r.id,
    );
    expect(logs.filter((id: string) => logIds.includes(id))).toEqual(logIds);
  }, 60_000);

  test("the PostgreSQL instance resumes the test clock where the SQLite instance left it, an hour past the wall clock", async () => {
    const r = await api(server!.base, "POST", "/v1/test_helpers/clock/advance", { key, body: { seconds: 1 } });
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.now)).toBeGreaterThanOrEqual(sqliteNow + 1000);
  });

  test("keeps idempotency: a create resent with its old key replays the original charge", async () => {
    const again = await api(server!.base, "POST", "/v1/pix/charges", {
      key,
      body: { amount: 1001, description: "before 1" },
      headers: { "idempotency-key": "import-1" },
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(created[1]);
  });

  test("takes new charges and payments, and the ledger verifies", async () => {
    const c = await api(server!.base, "POST", "/v1/pix/charges", {
      key,
      body: { amount: 2500, description: "after" },
      headers: { "idempotency-key": "import-after" },
    });
    expect(c.status).toBe(201);
    expect(
      (await api(server!.base, "POST", `/v1/test_helpers/charges/${c.body.id}/pay`, { key, body: {} })).status,
    ).toBe(200);
    const balance = await api(server!.base, "GET", "/v1/wallets/balance", { key });
    const old = before.balance as { available: number; pending: number };
    expect(balance.body.available + balance.body.pending).toBeGreaterThan(old.available + old.pending);
    const verify = cofre(["ledger", "verify"], { COFRE_DATA_DIR: dir, COFRE_DATABASE_URL: db.url });
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, mismatches: [] });
  }, 30_000);

  test("refuses a database that is not empty, writing nothing", async () => {
    const [count] = await db.sql`select count(*)::int as n from transactions`;
    const r = cofre(["import-sqlite", dir], { COFRE_DATA_DIR: dir, COFRE_DATABASE_URL: db.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("nothing imported: the PostgreSQL database is not empty (table accounts has rows)");
    expect(r.stdout).toBe("");
    expect((await db.sql`select count(*)::int as n from transactions`)[0].n).toBe(count.n);
  }, 30_000);

  test("without COFRE_DATABASE_URL, or without a folder, it explains its usage (exit 2)", () => {
    expect(cofre(["import-sqlite", dir], { COFRE_DATA_DIR: dir }).code).toBe(2);
    const r = cofre(["import-sqlite"], { COFRE_DATABASE_URL: db.url });
    expect([r.code, r.stderr]).toEqual([
      2,
      "usage: cofre import-sqlite DIR   (COFRE_DATABASE_URL set: the empty PostgreSQL database to fill)\n",
    ]);
  });
});

describe("a SQLite database written by a newer cofre", () => {
  test("is refused when a table or a column would be lost, writing nothing", async () => {
    for (const change of [
      "alter table accounts add column future_setting text",
      "create table future_things (id text primary key)",
    ]) {
      const src = mkdtempSync(join(tmpdir(), "cofre-import-newer-"));
      const target = await pgDatabase({ empty: true });
      try {
        expect(
          cofre(["init", "--email", OWNER.email, "--password", OWNER.password], { COFRE_DATA_DIR: src }).code,
        ).toBe(0);
        const sqlite = new Database(join(src, "cofre.db"));
        sqlite.exec(change);
        sqlite.close();
        const r = cofre(["import-sqlite", src], { COFRE_DATA_DIR: src, COFRE_DATABASE_URL: target.url });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(
          change.startsWith("alter")
            ? "columns this version of cofre does not know (accounts: future_setting)"
            : "tables this version of cofre does not know (future_things)",
        );
        expect((await target.sql`select count(*)::int as n from accounts`)[0].n).toBe(0);
      } finally {
        await target.drop();
        rmSync(src, { recursive: true, force: true });
      }
    }
  }, 60_000);
});

describe("sealed Pix secrets", () => {
  test("are refused when they do not open with the PostgreSQL deployment's key, and copied when they do", async () => {
    const src = mkdtempSync(join(tmpdir(), "cofre-import-keys-"));
    const target = await pgDatabase({ empty: true });
    try {
      const sqliteKey = randomBytes(32).toString("base64");
      const deps = createDeps({
        dataDir: src,
        config: { databaseUrl: null, secretsKey: sqliteKey, logLevel: "silent" },
      });
      const sealed = await sealSecrets(await deps.secretsKey, "pxc_import", "client-secret", "private-key");
      await deps.store.tx((uow) =>
        uow.pixProvider.saveActive({
          id: "pxc_import",
          accountId: "acct_import",
          type: "bcb_pix_v2",
          apiUrl: "https://psp.invalid/api/v2",
          tokenUrl: "https://psp.invalid/oauth/token",
          clientId: "client",
          ...sealed,
          certificate: "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n",
          caCertificates: null,
          pixKey: "pix@example.com",
          webhookRegistered: true,
          scope: null,
          tokenAuth: "basic",
          apiQuery: null,
          certificateFingerprint: "00",
          certificateExpiresAt: 0,
          webhookUrl: "https://pay.example.com/hook",
          createdAt: 0,
          updatedAt: 0,
          deletedAt: null,
        } as never),
      );
      await deps.store.close();
      const env = { COFRE_DATA_DIR: src, COFRE_DATABASE_URL: target.url };
      const wrong = cofre(["import-sqlite", src], { ...env, COFRE_SECRETS_KEY: randomBytes(32).toString("base64") });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain(
        "the secrets of Pix connection pxc_import do not open with this deployment's key: set COFRE_SECRETS_KEY",
      );
      expect((await target.sql`select count(*)::int as n from pix_provider_connections`)[0].n).toBe(0);
      const right = cofre(["import-sqlite", src], { ...env, COFRE_SECRETS_KEY: sqliteKey });
      expect({ code: right.code, stderr: right.stderr }).toEqual({ code: 0, stderr: "" });
      expect(
        (await target.sql`select id, client_secret_sealed from pix_provider_connections`).map((r: any) => [
          r.id,
          r.client_secret_sealed,
        ]),
      ).toEqual([["pxc_import", sealed.clientSecretSealed]]);
    } finally {
      await target.drop();
      rmSync(src, { recursive: true, force: true });
    }
  }, 60_000);
});
