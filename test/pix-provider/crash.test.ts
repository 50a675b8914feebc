/**
 * A crash between the PSP's answer and our commit (issue 14 §5: "a crash between the PSP call and
 * the commit (kill and restart) leaves one cob and a usable charge"), with a real `cofre serve`
 * child process against psp-sim over real mTLS. The test-only hook COFRE_TEST_CRASH_AFTER_PSP_CREATE=1
 * makes the process SIGKILL itself right after `PUT /cob` answered, before the charge commits; the
 * restarted process finishes the charge from the durable intent, by the retry of the key or by the
 * recovery job (COFRE_TEST_CLOCK=1 moves its clock past the grace period).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../foundation/process";
import { SimClient, startFixture, validCpf, type SimFixture } from "../psp-sim/support";
import { OPERATOR_TOKEN } from "./support";
import { serverEnv } from "../support/backend";

const ROOT = join(import.meta.dir, "..", "..");
const EMAIL = "crash@example.com";
const PASSWORD = "a long passphrase";

let fx: SimFixture;
let sim: SimClient;
let dir: string;
let server: RunningServer | undefined;
let liveKey = "";
let testKey = "";
beforeAll(async () => {
  fx = await startFixture();
  sim = new SimClient(fx);
  expect((await sim.login()).status).toBe(200);
  dir = mkdtempSync(join(tmpdir(), "cofre-crash-"));
  const init = Bun.spawnSync(["bun", "src/main.ts", "init", "--email", EMAIL, "--password", PASSWORD], {
    cwd: ROOT,
    env: { ...process.env, ...serverEnv(dir) },
  });
  expect(init.exitCode).toBe(0);
});
afterAll(async () => {
  if (server) await server.stop();
  await fx.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `serve` on the data dir (live preview, operator token, test clock, extra env). */
async function serve(env: Record<string, string> = {}): Promise<RunningServer> {
  if (server) await server.stop(); // one left running by a test that failed midway
  server = await startServer(["bun", "src/main.ts", "serve"], {
    dataDir: dir,
    cwd: ROOT,
    env: { LOG_LEVEL: "info", COFRE_OPERATOR_TOKEN: OPERATOR_TOKEN, COFRE_TEST_CLOCK: "1", ...env },
    timeoutMs: 30_000,
  });
  return server;
}

async function call(
  method: string,
  path: string,
  opts: { key?: string; bearer?: string; body?: unknown; idem?: string } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.key) headers.apikey = opts.key;
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  if (opts.idem) headers["idempotency-key"] = opts.idem;
  const res = await fetch(`${server!.base}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const cobs = async (): Promise<{ txid: string; status: string }[]> =>
  (await sim.control("GET", "/_sim/cobs")).body.cobs;

/** Sends a live create that kills the server mid-way: the request never gets an answer. */
async function createAndCrash(idem: string, body: unknown): Promise<void> {
  const crashed = await call("POST", "/v1/pix/charges", { key: liveKey, idem, body }).then(
    (r) => `answered ${r.status}`,
    () => "no answer",
  );
  expect(crashed).toBe("no answer");
  const code = await server!.stop(); // already dead: collects the exit
  server = undefined;
  expect(code).toBe(137); // killed by SIGKILL (128 + 9), not a clean exit
}

test("a crash after the PSP created the cob leaves one cob, and the retry after restart gets the charge, which a payment makes paid", async () => {
  await serve();
  const login = await call("POST", "/v1/auth/login", { body: { email: EMAIL, password: PASSWORD } });
  expect(login.status).toBe(200);
  const bearer = login.body.access_token;
  const account = await call("GET", "/v1/account", { bearer });
  liveKey = (await call("POST", "/v1/api-keys", { bearer, body: { label: "live", test: false } })).body.apiKey;
  testKey = (await call("POST", "/v1/api-keys", { bearer, body: { label: "test", test: true } })).body.apiKey;
  expect([liveKey.length > 0, testKey.length > 0]).toEqual([true, true]);
  const connection = { ...fx.init.body, api_url: fx.sim.apiUrl, token_url: fx.sim.tokenUrl };
  expect(
    (
      await call("PUT", `/v1/operator/accounts/${account.body.id}/pix-provider`, {
        bearer: OPERATOR_TOKEN,
        body: connection,
      })
    ).status,
  ).toBe(200);
  await server!.stop();

  await serve({ COFRE_TEST_CRASH_AFTER_PSP_CREATE: "1" });
  const body = { amount: 5555, description: "crash test" };
  await createAndCrash("crash-key-0001", body);
  expect(await cobs()).toHaveLength(1);
  const [cob] = await cobs();
  expect(cob!.status).toBe("ATIVA");

  await serve();
  const retry = await call("POST", "/v1/pix/charges", { key: liveKey, idem: "crash-key-0001", body });
  expect([retry.status, retry.headers.get("idempotent-replayed")]).toEqual([201, null]);
  expect([retry.body.status, retry.body.amount, retry.body.pix.txid]).toEqual(["pending", 5555, cob!.txid]);
  expect(retry.body.pix.br_code).toBe((await sim.api("GET", `/cob/${cob!.txid}`)).body.pixCopiaECola);
  expect(await cobs()).toHaveLength(1);
  const replay = await call("POST", "/v1/pix/charges", { key: liveKey, idem: "crash-key-0001", body });
  expect([replay.status, replay.headers.get("idempotent-replayed"), replay.body.id]).toEqual([
    201,
    "true",
    retry.body.id,
  ]);

  // Paid at the PSP; the first status check (due 15 s after creation) confirms it.
  expect(
    (await sim.control("POST", `/_sim/cob/${cob!.txid}/pay`, { pagador: { nome: "Pagador", cpf: validCpf() } })).status,
  ).toBe(200);
  expect((await call("POST", "/v1/test_helpers/clock/advance", { key: testKey, body: { seconds: 30 } })).status).toBe(
    200,
  );
  const paid = await call("GET", `/v1/charges/${retry.body.id}`, { key: liveKey });
  expect([paid.status, paid.body.status]).toEqual([200, "paid"]);
  await server!.stop();
  server = undefined;
}, 120_000);

test("a crash nobody retries is finished by the recovery job after restart; the retry then replays 201", async () => {
  await serve({ COFRE_TEST_CRASH_AFTER_PSP_CREATE: "1" });
  const body = { amount: 777 };
  const before = (await cobs()).length;
  await createAndCrash("crash-key-0002", body);
  const created = (await cobs()).slice(before);
  expect(created).toHaveLength(1);

  await serve();
  // Past the 2 min grace period: the recovery job (every minute) asks GET /cob and commits the charge.
  expect((await call("POST", "/v1/test_helpers/clock/advance", { key: testKey, body: { seconds: 180 } })).status).toBe(
    200,
  );
  const list = await call("GET", "/v1/charges?limit=10", { key: liveKey });
  const found = (list.body.data as any[]).find((c) => c.pix?.txid === created[0]!.txid);
  expect(found?.amount).toBe(777);
  const retry = await call("POST", "/v1/pix/charges", { key: liveKey, idem: "crash-key-0002", body });
  expect([retry.status, retry.headers.get("idempotent-replayed"), retry.body.id, retry.body.pix.txid]).toEqual([
    201,
    "true",
    found.id,
    created[0]!.txid,
  ]);
  expect((await cobs()).length).toBe(before + 1);
}, 120_000);
