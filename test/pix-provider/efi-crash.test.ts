/**
 * A process killed between a cashout refund's send and its commit (issue 24 §5: "a kill between
 * the send and the commit"), with a real `cofre serve` child against psp-sim's Efí routes over real
 * mTLS. The test-only hook COFRE_TEST_CRASH_AFTER_PSP_SEND=1 makes the process SIGKILL itself right
 * after `PUT /v3/gn/pix/{idEnvio}` answered, before the refund's progress commits; the restarted
 * process (once the dead one's job lease ran out) submits the still PENDING refund again, Efí answers 409
 * id_envio_duplicado, the GET by idEnvio finds the send, and the refund goes on with exactly one send at the PSP.
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
const EMAIL = "efi-crash@example.com";
const PASSWORD = "a long passphrase";

let fx: SimFixture;
let sim: SimClient;
let dir: string;
let server: RunningServer | undefined;
beforeAll(async () => {
  fx = await startFixture({ sendResults: "manual" });
  sim = new SimClient(fx);
  expect((await sim.login()).status).toBe(200);
  dir = mkdtempSync(join(tmpdir(), "cofre-efi-crash-"));
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

async function serve(env: Record<string, string> = {}): Promise<RunningServer> {
  if (server) await server.stop();
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
): Promise<{ status: number; body: any }> {
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
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const sendsOf = async (id: string) =>
  ((await sim.control("GET", "/_sim/sends")).body.sends as { idEnvio: string; status: string }[]).filter(
    (s) => s.idEnvio === id,
  );

/** Waits (up to 10 s of wall time) until `probe` is true. */
async function until(probe: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 500; i++) {
    if (await probe()) return true;
    await Bun.sleep(20);
  }
  return false;
}

test("a kill after Efí took a cashout refund's send leaves one send, and the restarted job carries the refund to REFUNDED", async () => {
  await serve();
  const login = await call("POST", "/v1/auth/login", { body: { email: EMAIL, password: PASSWORD } });
  const bearer = login.body.access_token;
  const account = await call("GET", "/v1/account", { bearer });
  const liveKey = (await call("POST", "/v1/api-keys", { bearer, body: { label: "live", test: false } })).body.apiKey;
  const testKey = (await call("POST", "/v1/api-keys", { bearer, body: { label: "test", test: true } })).body.apiKey;
  const connection = { ...fx.init.efiBody, api_url: fx.sim.origin, token_url: fx.sim.tokenUrl };
  const connected = await call("PUT", `/v1/operator/accounts/${account.body.id}/pix-provider`, {
    bearer: OPERATOR_TOKEN,
    body: connection,
  });
  expect([connected.status, connected.body.type]).toEqual([200, "efi"]);

  const cpf = validCpf();
  const c = await call("POST", "/v1/pix/charges", {
    key: liveKey,
    idem: "efi-crash-charge",
    body: { amount: 4321, customer: { name: "Fulana", document: cpf } },
  });
  expect(c.status).toBe(201);
  expect(
    (await sim.control("POST", `/_sim/cob/${c.body.pix.txid}/pay`, { pagador: { nome: "Fulana", cpf } })).status,
  ).toBe(200);
  expect((await call("POST", "/v1/test_helpers/clock/advance", { key: testKey, body: { seconds: 30 } })).status).toBe(
    200,
  );
  expect((await call("GET", `/v1/charges/${c.body.id}`, { key: liveKey })).body.status).toBe("paid");
  await server!.stop();
  server = undefined;

  await serve({ COFRE_TEST_CRASH_AFTER_PSP_SEND: "1" });
  const r = await call("POST", `/v1/payments/${c.body.id}/refund`, {
    key: liveKey,
    body: { idempotencyKey: "efi-crash-refund" },
  });
  expect([r.status, r.body.status]).toEqual([201, "PENDING"]);
  const sendId = String(r.body.id).slice(3);
  // The refund job runs at once: Efí takes the send, then the process dies before recording it.
  expect(await until(async () => (await sendsOf(sendId)).length === 1)).toBe(true);
  expect(await server!.stop()).toBe(137);
  server = undefined;

  await serve();
  // The dead process's job lease (120 s) runs out; the job then submits the PENDING refund again.
  expect((await call("POST", "/v1/test_helpers/clock/advance", { key: testKey, body: { seconds: 150 } })).status).toBe(
    200,
  );
  const refundOf = async () =>
    (
      (await call("GET", `/v1/payments/${c.body.id.slice(3)}/refunds`, { key: liveKey })).body.data as {
        id: string;
        status: string;
      }[]
    ).find((x) => x.id === r.body.id)?.status;
  expect(await until(async () => (await refundOf()) === "IN_PROGRESS")).toBe(true);
  expect(await sendsOf(sendId)).toHaveLength(1);
  expect((await sim.control("POST", `/_sim/sends/${sendId}/settle`, {})).status).toBe(200);
  // Its callback cannot reach this child (no public URL): the check 5 min after the request finds it.
  expect((await call("POST", "/v1/test_helpers/clock/advance", { key: testKey, body: { seconds: 300 } })).status).toBe(
    200,
  );
  expect(await until(async () => (await refundOf()) === "REFUNDED")).toBe(true);
  expect(await sendsOf(sendId)).toHaveLength(1);
}, 120_000);
