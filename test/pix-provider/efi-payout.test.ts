/**
 * Live payouts through an `efi` connection, end to end against psp-sim over real mTLS
 * (extensions.md "Payouts (money out)", "Pix send through a PSP: connection type `efi`"): a
 * payout is one `PUT /v3/gn/pix/{idEnvio}` (idEnvio = the payout id without `po_`) from the
 * connection's key to the registered destination; paid by the callback's hint confirmed with the
 * GET; refused (by callback, or at the request for want of balance at the PSP) -> failed with
 * Efí's code and `amount + fee` back in `available`; a timeout after Efí accepted, a lost answer
 * and a repeated PUT (409 id_envio_duplicado) each leave one send; a dropped callback is caught
 * by polling. The simulator ends sends only by control route here (`sendResults: manual`).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BcbConnectionGateway } from "../../src/providers/bcb-pix-v2/gateway";
import { loginToken } from "../auth/support";
import { available, fund, idem } from "../payouts/support";
import { advance, expectLedgerClean, startLive, type LiveEnv } from "./live-support";

let env: LiveEnv;
let token: string;
let dest: { id: string };
beforeAll(async () => {
  env = await startLive(
    { settings: { payoutFeeFixed: 50, settlementDelaySeconds: 0 } },
    { type: "efi", sim: { sendResults: "manual" } },
  );
  token = await loginToken(env.h, env.a.email, env.a.password);
  const r = await env.h.call("POST", "/v1/payout_destinations", {
    bearer: token,
    body: { type: "pix_key", pix_key_type: "email", pix_key: "fulano@example.com", name: "Fulano" },
  });
  expect(r.status).toBe(201);
  dest = r.body;
  await fund(env.h, env.a, 1_000_000, true);
});
afterAll(async () => {
  await env.stop();
});

const create = async (amount: number) => {
  const r = await env.h.call("POST", "/v1/payouts", {
    key: env.a.liveKey,
    body: { amount, destination_id: dest.id, description: "Saque" },
    headers: { "idempotency-key": idem() },
  });
  expect([r.status, r.body.status, r.body.livemode]).toEqual([201, "pending", true]);
  return r.body as { id: string };
};
const get = async (id: string) => (await env.h.call("GET", `/v1/payouts/${id}`, { key: env.a.liveKey })).body;
const sendIdOf = (id: string) => id.slice(3);
const simSends = async (id: string) =>
  (
    (await env.sim.control("GET", "/_sim/sends")).body.sends as {
      idEnvio: string;
      e2eId: string;
      valor: string;
      status: string;
      favorecido: unknown;
      pagador: unknown;
    }[]
  ).filter((s) => s.idEnvio === sendIdOf(id));
const finish = async (id: string, how: "settle" | "fail", body: Record<string, unknown> = {}) => {
  const r = await env.sim.control("POST", `/_sim/sends/${sendIdOf(id)}/${how}`, { wait_callback: true, ...body });
  expect(r.status).toBe(200);
  return r.body;
};

describe("a live payout", () => {
  test("is one send from the connection's key to the destination, processing, then paid by the callback confirmed with the GET", async () => {
    const before = await available(env.h, env.a.liveKey);
    const p = await create(500);
    expect(await available(env.h, env.a.liveKey)).toBe(before - 550);
    await env.h.deps.jobs.drain();
    expect((await get(p.id)).status).toBe("processing");
    const sends = await simSends(p.id);
    expect(sends.map((s) => [s.valor, s.status, s.favorecido, s.pagador])).toEqual([
      ["5.00", "EM_PROCESSAMENTO", { chave: "fulano@example.com" }, { chave: env.sim.pixKey, infoPagador: "Saque" }],
    ]);
    await finish(p.id, "settle");
    await env.h.deps.jobs.drain();
    const paid = await get(p.id);
    expect([paid.status, paid.end_to_end_id, paid.failure_code]).toEqual(["paid", sends[0]!.e2eId, null]);
    expect(await available(env.h, env.a.liveKey)).toBe(before - 550);
    expect(await simSends(p.id)).toHaveLength(1);
    await expectLedgerClean(env);
  });

  test("to a bank account goes as contaBanco (ISPB, branch, account, cacc, the holder's CNPJ)", async () => {
    const bank = await env.h.call("POST", "/v1/payout_destinations", {
      bearer: token,
      body: {
        type: "bank_account",
        name: "Loja Teste Ltda",
        tax_id: "11.222.333/0001-81",
        ispb: "00360305",
        branch: "0001",
        account: "1234567",
        account_type: "checking",
      },
    });
    expect(bank.status).toBe(201);
    const r = await env.h.call("POST", "/v1/payouts", {
      key: env.a.liveKey,
      body: { amount: 300, destination_id: bank.body.id },
      headers: { "idempotency-key": idem() },
    });
    expect(r.status).toBe(201);
    await env.h.deps.jobs.drain();
    expect((await get(r.body.id)).status).toBe("processing");
    expect((await simSends(r.body.id)).map((s) => s.favorecido)).toEqual([
      {
        contaBanco: {
          nome: "Loja Teste Ltda",
          cnpj: "11222333000181",
          codigoBanco: "00360305",
          agencia: "0001",
          conta: "1234567",
          tipoConta: "cacc",
        },
      },
    ]);
  });

  test("refused by Efí's callback ends failed with gnExtras.erro.codigo, amount and fee back in available", async () => {
    const before = await available(env.h, env.a.liveKey);
    const p = await create(700);
    await env.h.deps.jobs.drain();
    await finish(p.id, "fail", { codigo: "AC03", motivo: "Conta inexistente" });
    await env.h.deps.jobs.drain();
    const failed = await get(p.id);
    expect([failed.status, failed.failure_code, failed.failure_message]).toEqual([
      "failed",
      "AC03",
      "Conta inexistente",
    ]);
    expect(await available(env.h, env.a.liveKey)).toBe(before);
    await expectLedgerClean(env);
  });

  test("refused at the request (422 pagamento_negado: no balance at the PSP) ends failed with nothing sent", async () => {
    const before = await available(env.h, env.a.liveKey);
    await env.sim.control("POST", "/_sim/balance", { valor: "1.00" });
    try {
      const p = await create(800);
      await env.h.deps.jobs.drain();
      const failed = await get(p.id);
      expect([failed.status, failed.failure_code]).toEqual(["failed", "pagamento_negado"]);
      expect(await simSends(p.id)).toEqual([]);
      expect(await available(env.h, env.a.liveKey)).toBe(before);
    } finally {
      await env.sim.control("POST", "/_sim/balance", { valor: "100000.00" });
    }
  });

  test("a settled send whose callback was dropped is found by polling", async () => {
    const p = await create(900);
    await env.h.deps.jobs.drain();
    await env.sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    expect((await finish(p.id, "settle")).callback.status).toBe("dropped");
    await env.h.deps.jobs.drain();
    expect((await get(p.id)).status).toBe("processing");
    await advance(env, 20);
    expect((await get(p.id)).status).toBe("paid");
  });
});

describe("exactly one send under doubt", () => {
  test("a timeout after Efí accepted: resolved by the GET by idEnvio, one send, then paid", async () => {
    const gateway = env.h.deps.pixConnections as BcbConnectionGateway;
    gateway.options = { totalTimeoutMs: 300 };
    gateway.forget(env.connectionId);
    try {
      const p = await create(1000);
      await env.sim.control("POST", "/_sim/faults/latency", {
        ms: 1000,
        count: 1,
        match: "PUT /v3/gn/pix/",
        after: true,
      });
      await env.h.deps.jobs.drain();
      expect((await get(p.id)).status).toBe("processing");
      expect(await simSends(p.id)).toHaveLength(1);
      await finish(p.id, "settle");
      await env.h.deps.jobs.drain();
      expect((await get(p.id)).status).toBe("paid");
    } finally {
      gateway.options = {};
      gateway.forget(env.connectionId);
    }
  });

  test("a lost answer (500 after the send took effect) whose GET also fails is resolved by the next run asking first: one send", async () => {
    const p = await create(1100);
    await env.sim.control("POST", "/_sim/faults/errors", {
      status: 500,
      count: 1,
      match: "PUT /v3/gn/pix/",
      after: true,
    });
    await env.sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "GET /v2/gn/pix/enviados/" });
    await env.h.deps.jobs.drain();
    expect(await simSends(p.id)).toHaveLength(1);
    await advance(env, 30); // the retry: resumed, GET first, found -> no second PUT
    expect((await get(p.id)).status).toBe("processing");
    expect(await simSends(p.id)).toHaveLength(1);
  });

  test("the same idEnvio PUT again is 409 id_envio_duplicado at Efí, resolved by the GET: one send", async () => {
    const p = await create(1200);
    await env.h.deps.jobs.drain();
    expect(await simSends(p.id)).toHaveLength(1);
    const provider = env.h.deps.providers.forConnection(env.connectionId)!;
    const req = {
      sendId: sendIdOf(p.id),
      amount: 1200,
      destination: {
        type: "pix_key",
        pixKey: "fulano@example.com",
        pixKeyType: "email",
        taxId: null,
        name: null,
      } as const,
      description: null,
      resumed: false,
      requestedAt: env.h.clock.nowMs(),
    };
    expect(await provider.send!(env.h.deps.providers.ctx, req)).toMatchObject({
      status: "processing",
      endToEndId: (await simSends(p.id))[0]!.e2eId,
    });
    expect(await simSends(p.id)).toHaveLength(1);
  });
});
