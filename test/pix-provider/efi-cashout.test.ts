/**
 * Live cashout refunds through an `efi` connection, end to end against psp-sim over real mTLS
 * (extensions.md "Refunds by cashout", "Pix send through a PSP: connection type `efi`"): the
 * connection (api_url = the origin, webhook registered with `x-skip-mtls-checking: true`), a refund
 * with no strategy sent as `PUT /v3/gn/pix/{idEnvio}` to the payer's CPF (idEnvio = the refund id
 * without `re_`) and REFUNDED by the callback's hint confirmed with the GET; a refusal (by callback
 * or at the request) FAILED with the balance restored; a dropped callback caught by the check 15 s
 * after the request; a timeout after Efí accepted and a repeated submission (a process killed
 * between the send and the commit) resolved with one send; devolution still a devolução. The
 * simulator ends sends only by control route here (`sendResults: manual`).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BcbConnectionGateway } from "../../src/providers/bcb-pix-v2/gateway";
import { key } from "../payments/support";
import { validCpf } from "../psp-sim/support";
import { connectionPath, OPERATOR_TOKEN } from "./support";
import {
  advance,
  balance,
  charge,
  createLive,
  expectLedgerClean,
  payAtSim,
  startLive,
  type LiveEnv,
} from "./live-support";

let env: LiveEnv;
let logDir: string;
beforeAll(async () => {
  logDir = mkdtempSync(join(tmpdir(), "efi-log-"));
  env = await startLive(
    { settings: { payoutFeeFixed: 90, settlementDelaySeconds: 0 } },
    { type: "efi", sim: { sendResults: "manual", exchangeLog: join(logDir, "x.jsonl") } },
  );
});
afterAll(async () => {
  await env.stop();
  rmSync(logDir, { recursive: true, force: true });
});

const refund = (id: string, body: Record<string, unknown> = {}) =>
  env.h.call("POST", `/v1/payments/${id}/refund`, {
    key: env.a.liveKey,
    body: { idempotencyKey: key("refund"), ...body },
  });
const stored = async (id: string) => (await env.h.deps.store.read.refunds.byId(id))!;
const simSends = async () =>
  (await env.sim.control("GET", "/_sim/sends")).body.sends as {
    idEnvio: string;
    valor: string;
    status: string;
    favorecido: Record<string, unknown>;
  }[];
const sendsOf = async (id: string) => (await simSends()).filter((s) => s.idEnvio === id);
/** Ends send `id` at the simulator; its callback reaches Cofre before this returns. */
const finish = async (id: string, how: "settle" | "fail", body: Record<string, unknown> = {}) => {
  const r = await env.sim.control("POST", `/_sim/sends/${id}/${how}`, { wait_callback: true, ...body });
  expect(r.status).toBe(200);
  return r.body;
};

/** A live charge of a customer with CPF `cpf`, paid at the simulator and confirmed. */
async function paidCharge(amount: number, cpf: string | null = validCpf()) {
  const c = await createLive(env, { amount, ...(cpf ? { customer: { name: "Fulana Pagadora", document: cpf } } : {}) });
  await payAtSim(env, c.pix.txid);
  await env.h.deps.jobs.drain();
  expect((await charge(env, c.id)).status).toBe("paid");
  return { id: c.id as string, rawId: String(c.id).slice(3), cpf };
}

describe("the efi connection", () => {
  test("is stored with type efi, its webhook registered at /v2/webhook/{chave} with x-skip-mtls-checking: true", async () => {
    const view = await env.h.call("GET", connectionPath(env.a.accountId), { bearer: OPERATOR_TOKEN });
    expect([view.status, view.body.type, view.body.api_url, view.body.webhook_registered]).toEqual([
      200,
      "efi",
      env.fx.sim.origin,
      true,
    ]);
    const log = readFileSync(join(logDir, "x.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const hook = log.find(
      (e) => e.request.method === "PUT" && new URL(e.request.url).pathname === `/v2/webhook/${env.sim.pixKey}`,
    );
    expect([hook?.response.status, hook?.request.headers["x-skip-mtls-checking"]]).toEqual([200, "true"]);
  });

  test("an api_url with a path is 400 invalid_url on api_url (an efi api_url is the origin)", async () => {
    const a = await env.h.seedAccount();
    const r = await env.h.call("PUT", connectionPath(a.accountId), {
      bearer: OPERATOR_TOKEN,
      body: { ...env.fx.init.efiBody, api_url: `${env.fx.sim.origin}/v2`, token_url: env.fx.sim.tokenUrl },
    });
    expect([r.status, r.body.error.code, r.body.error.param]).toEqual([400, "invalid_url", "api_url"]);
  });
});

describe("a cashout refund with no strategy", () => {
  test("is one send to the payer's CPF, IN_PROGRESS, then REFUNDED by the callback confirmed with the GET; the balance is debited once", async () => {
    const c = await paidCharge(2000);
    const before = await balance(env);
    const r = await refund(c.id, { reason: "cliente desistiu" });
    expect([r.status, r.body.status]).toEqual([201, "PENDING"]);
    const row = await stored(r.body.id);
    const sendId = String(r.body.id).slice(3);
    expect([row.strategy, row.providerRefundId]).toEqual(["cashout", sendId]);
    expect(await balance(env)).toBe(before - 2000);

    await env.h.deps.jobs.drain();
    expect((await stored(r.body.id)).status).toBe("IN_PROGRESS");
    const sends = await sendsOf(sendId);
    expect(sends.map((s) => [s.valor, s.status, s.favorecido])).toEqual([
      ["20.00", "EM_PROCESSAMENTO", { chave: c.cpf, cpf: c.cpf }],
    ]);

    await finish(sendId, "settle");
    await env.h.deps.jobs.drain();
    expect((await stored(r.body.id)).status).toBe("REFUNDED");
    expect((await charge(env, c.id)).status).toBe("refunded");
    expect(await balance(env)).toBe(before - 2000);
    expect(await sendsOf(sendId)).toHaveLength(1);
    await expectLedgerClean(env);
  });

  test("refused by Efí's callback (NAO_REALIZADO) ends FAILED with Efí's code, the balance and the remainder restored", async () => {
    const c = await paidCharge(3000);
    const before = await balance(env);
    const r = await refund(c.id);
    await env.h.deps.jobs.drain();
    await finish(String(r.body.id).slice(3), "fail", { codigo: "AC03", motivo: "Conta inexistente" });
    await env.h.deps.jobs.drain();
    const row = await stored(r.body.id);
    expect([row.status, row.failureReason]).toEqual(["FAILED", "AC03: Conta inexistente"]);
    expect(await balance(env)).toBe(before);
    const again = await refund(c.id, { amount: 3000, destinationKey: "pagador@example.com" });
    expect([again.status, again.body.amount]).toEqual([201, 3000]);
    await expectLedgerClean(env);
  });

  test("refused at the request (the PSP balance is short: 422 pagamento_negado) ends FAILED with the balance restored", async () => {
    const c = await paidCharge(4000);
    const before = await balance(env);
    await env.sim.control("POST", "/_sim/balance", { valor: "10.00" });
    try {
      const r = await refund(c.id);
      await env.h.deps.jobs.drain();
      const row = await stored(r.body.id);
      expect(row.status).toBe("FAILED");
      expect(row.failureReason).toStartWith("pagamento_negado: 422");
      expect(await sendsOf(String(r.body.id).slice(3))).toEqual([]);
      expect(await balance(env)).toBe(before);
    } finally {
      await env.sim.control("POST", "/_sim/balance", { valor: "100000.00" });
    }
  });

  test("a settled send whose callback was dropped is found by the check 15 s after the request", async () => {
    const c = await paidCharge(2100);
    const r = await refund(c.id);
    await env.h.deps.jobs.drain();
    await env.sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    expect((await finish(String(r.body.id).slice(3), "settle")).callback.status).toBe("dropped");
    await env.h.deps.jobs.drain();
    expect((await stored(r.body.id)).status).toBe("IN_PROGRESS");
    await advance(env, 15);
    expect((await stored(r.body.id)).status).toBe("REFUNDED");
  });

  test("a destinationKey is paid instead of the payer; passFeeToTenant debits payout_fee_fixed", async () => {
    const c = await paidCharge(2500);
    const before = await balance(env);
    const r = await refund(c.id, { destinationKey: "+5511999998888", passFeeToTenant: true });
    expect([r.status, r.body.error]).toEqual([201, undefined]);
    expect(await balance(env)).toBe(before - 2500 - 90);
    await env.h.deps.jobs.drain();
    expect((await sendsOf(String(r.body.id).slice(3))).map((s) => s.favorecido)).toEqual([{ chave: "+5511999998888" }]);
  });

  test("without destinationKey and without the payer's CPF/CNPJ it is 400 on destinationKey, and nothing changes", async () => {
    const c = await paidCharge(1500, null);
    const before = await balance(env);
    const r = await refund(c.id);
    expect([r.status, r.body.error.code, r.body.error.param]).toEqual([400, "invalid_request", "destinationKey"]);
    const bad = await refund(c.id, { destinationKey: "12345678900" });
    expect([bad.status, bad.body.error.param]).toEqual([400, "destinationKey"]);
    expect(await balance(env)).toBe(before);
  });
});

describe("exactly one send under doubt", () => {
  test("a timeout after Efí accepted the send: the GET by idEnvio finds it, no second PUT, and it completes", async () => {
    const gateway = env.h.deps.pixConnections as BcbConnectionGateway;
    gateway.options = { totalTimeoutMs: 300 };
    gateway.forget(env.connectionId);
    try {
      const c = await paidCharge(2200);
      const r = await refund(c.id);
      const sendId = String(r.body.id).slice(3);
      await env.sim.control("POST", "/_sim/faults/latency", {
        ms: 1000,
        count: 1,
        match: "PUT /v3/gn/pix/",
        after: true,
      });
      await env.h.deps.jobs.drain();
      expect((await stored(r.body.id)).status).toBe("IN_PROGRESS");
      expect(await sendsOf(sendId)).toHaveLength(1);
      await finish(sendId, "settle");
      await env.h.deps.jobs.drain();
      expect((await stored(r.body.id)).status).toBe("REFUNDED");
    } finally {
      gateway.options = {};
      gateway.forget(env.connectionId);
    }
  });

  test("a submission repeated after the PSP took it (a process killed before its commit) gets 409 id_envio_duplicado, resolved by the GET: one send", async () => {
    const c = await paidCharge(2300);
    const r = await refund(c.id);
    const sendId = String(r.body.id).slice(3);
    // The killed process's call: it reached Efí, and its outcome was never recorded.
    const provider = env.h.deps.providers.forConnection(env.connectionId)!;
    const transaction = (await env.h.deps.store.read.charges.byId(c.rawId))!;
    expect(
      await provider.refund(env.h.deps.providers.ctx, { refund: await stored(r.body.id), transaction }),
    ).toMatchObject({ status: "pending", inProgress: true });
    expect((await stored(r.body.id)).status).toBe("PENDING");
    await env.h.deps.jobs.drain(); // the restarted job submits again
    expect((await stored(r.body.id)).status).toBe("IN_PROGRESS");
    expect(await sendsOf(sendId)).toHaveLength(1);
  });
});

describe("strategy devolution through efi", () => {
  test("is a devolução of the original Pix at /v2/pix/{e2eid}/devolucao/{id}, not a send", async () => {
    const c = await paidCharge(1800);
    const r = await refund(c.id, { strategy: "devolution" });
    expect(r.status).toBe(201);
    await env.h.deps.jobs.drain();
    expect((await stored(r.body.id)).status).toBe("IN_PROGRESS");
    expect(await sendsOf(String(r.body.id).slice(3))).toEqual([]);
    const tx = (await env.h.deps.store.read.charges.byId(c.rawId))!;
    const pix = await env.sim.efi("GET", `/v2/pix/${tx.endToEndId}`);
    expect((pix.body.devolucoes as { id: string }[]).map((d) => d.id)).toEqual([String(r.body.id).slice(3)]);
  });
});
