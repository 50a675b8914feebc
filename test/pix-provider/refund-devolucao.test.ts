/**
 * Refunds of live Pix as devoluções, end to end against psp-sim over real mTLS (extensions.md
 * "Live Pix over the BCB API Pix (v2)": Refund; interface.md "Refund status",
 * `POST /v1/payments/{id}/refund`): `PUT /pix/{e2eid}/devolucao/{id}` with id = the refund id
 * without `re_`, EM_PROCESSAMENTO -> IN_PROGRESS, DEVOLVIDO -> REFUNDED, NAO_REALIZADO -> FAILED
 * with the balance and the refundable remainder restored; no cashout through the standard; a 503
 * retried with the same id; credentials refused by the PSP (psp-sim's auth fault) retried until
 * it accepts again, logged without a secret; a devolução callback only a hint; a deleted connection still refunds
 * the charges it created. Due jobs run through the injected clocks (no sleeping).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { key, REFUND_FIELDS } from "../payments/support";
import { connectionPath, OPERATOR_TOKEN } from "./support";
import {
  advance,
  balance,
  charge,
  eventsOf,
  expectLedgerClean,
  paidLive,
  simDevolucoes,
  startLive,
  type LiveEnv,
} from "./live-support";

let env: LiveEnv;
beforeAll(async () => {
  env = await startLive();
});
afterAll(async () => {
  await env.stop();
});

const refund = (id: string, body: Record<string, unknown> = {}) =>
  env.h.call("POST", `/v1/payments/${id}/refund`, {
    key: env.a.liveKey,
    body: { idempotencyKey: key("refund"), ...body },
  });
const refunds = async (rawId: string) =>
  (await env.h.call("GET", `/v1/payments/${rawId}/refunds`, { key: env.a.liveKey })).body.data as {
    id: string;
    status: string;
  }[];
const refundStatus = async (rawId: string, id: string) => (await refunds(rawId)).find((r) => r.id === id)?.status;
/** Ends devolução `id` of Pix `e2e` at the simulator; its callback reaches Cofre before this returns. */
const finish = async (e2e: string, id: string, how: "settle" | "fail", body: Record<string, unknown> = {}) => {
  const r = await env.sim.control("POST", `/_sim/pix/${e2e}/devolucao/${id}/${how}`, { wait_callback: true, ...body });
  expect(r.status).toBe(200);
  return r.body;
};

describe("a full refund", () => {
  test("goes PENDING -> IN_PROGRESS -> REFUNDED through the PSP's devolução, sends charge.refunded and debits the balance once", async () => {
    const { charge: c, pix, rawId } = await paidLive(env, 2000);
    const before = await balance(env);
    const r = await refund(c.id, { reason: "cliente desistiu" });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(REFUND_FIELDS);
    expect(r.body).toMatchObject({
      transactionId: rawId,
      amount: 2000,
      currency: "BRL",
      status: "PENDING",
      reason: "cliente desistiu",
    });
    expect(await balance(env)).toBe(before - 2000);
    const devId = String(r.body.id).slice(3);
    expect((await env.h.deps.store.read.refunds.byId(r.body.id))?.providerRefundId).toBe(devId);
    expect(await simDevolucoes(env, pix.endToEndId)).toEqual([]); // nothing sent before the job runs

    await env.h.deps.jobs.drain(); // the job submits the devolução at once
    expect(await refundStatus(rawId, r.body.id)).toBe("IN_PROGRESS");
    const devs = await simDevolucoes(env, pix.endToEndId);
    expect(devs.map((d) => [d.id, d.valor, d.natureza, d.status])).toEqual([
      [devId, "20.00", "ORIGINAL", "EM_PROCESSAMENTO"],
    ]);
    expect(await eventsOf(env, rawId, "charge.refunded")).toHaveLength(0);

    await finish(pix.endToEndId, devId, "settle"); // its callback is a hint: Cofre asks GET .../devolucao/{id}
    await env.h.deps.jobs.drain();
    expect(await refundStatus(rawId, r.body.id)).toBe("REFUNDED");
    expect((await charge(env, c.id)).status).toBe("refunded");
    const sent = await eventsOf(env, rawId, "charge.refunded");
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.body).data.refund).toMatchObject({ id: r.body.id, amount: 2000, status: "REFUNDED" });
    expect(await balance(env)).toBe(before - 2000);
    expect(await simDevolucoes(env, pix.endToEndId)).toHaveLength(1);
    await expectLedgerClean(env);
  });

  test("a devolução settled while its callback is dropped is found by the next check (15 s after the request)", async () => {
    const { charge: c, pix, rawId } = await paidLive(env, 2100);
    const r = await refund(c.id);
    await env.h.deps.jobs.drain();
    const devId = String(r.body.id).slice(3);
    await env.sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    await finish(pix.endToEndId, devId, "settle");
    await env.h.deps.jobs.drain();
    expect(await refundStatus(rawId, r.body.id)).toBe("IN_PROGRESS");
    await advance(env, 15);
    expect(await refundStatus(rawId, r.body.id)).toBe("REFUNDED");
  });
});

describe("a partial refund", () => {
  test("returns part of the Pix, leaves the charge paid, and the rest stays refundable", async () => {
    const { charge: c, pix, rawId } = await paidLive(env, 3000);
    const before = await balance(env);
    const r1 = await refund(c.id, { amount: 1000 });
    expect([r1.status, r1.body.amount]).toEqual([201, 1000]);
    await env.h.deps.jobs.drain();
    await finish(pix.endToEndId, String(r1.body.id).slice(3), "settle");
    await env.h.deps.jobs.drain();
    expect(await refundStatus(rawId, r1.body.id)).toBe("REFUNDED");
    expect((await charge(env, c.id)).status).toBe("paid");
    expect(await balance(env)).toBe(before - 1000);

    const over = await refund(c.id, { amount: 2001 });
    expect([over.status, over.body.error.code]).toEqual([400, "refund_amount_exceeds_remaining"]);
    const r2 = await refund(c.id);
    expect([r2.status, r2.body.amount]).toEqual([201, 2000]);
    await env.h.deps.jobs.drain();
    await finish(pix.endToEndId, String(r2.body.id).slice(3), "settle");
    await env.h.deps.jobs.drain();
    expect((await charge(env, c.id)).status).toBe("refunded");
    expect(await balance(env)).toBe(before - 3000);
    const devs = await simDevolucoes(env, pix.endToEndId);
    expect(devs.map((d) => [d.valor, d.status])).toEqual([
      ["10.00", "DEVOLVIDO"],
      ["20.00", "DEVOLVIDO"],
    ]);
    expect(await eventsOf(env, rawId, "charge.refunded")).toHaveLength(2);
  });
});

describe("a devolução NAO_REALIZADO", () => {
  test("fails the refund with the PSP's motivo and restores the balance and the refundable remainder", async () => {
    const { charge: c, pix, rawId } = await paidLive(env, 4000);
    const before = await balance(env);
    const r = await refund(c.id);
    await env.h.deps.jobs.drain();
    expect(await balance(env)).toBe(before - 4000);
    const devId = String(r.body.id).slice(3);
    await finish(pix.endToEndId, devId, "fail", { motivo: "Conta do pagador encerrada" });
    await env.h.deps.jobs.drain();
    expect(await refundStatus(rawId, r.body.id)).toBe("FAILED");
    expect((await env.h.deps.store.read.refunds.byId(r.body.id))?.failureReason).toBe(
      "NAO_REALIZADO: Conta do pagador encerrada",
    );
    expect(await balance(env)).toBe(before);
    expect((await charge(env, c.id)).status).toBe("paid");
    expect(await eventsOf(env, rawId, "charge.refunded")).toHaveLength(0);
    // The whole amount is refundable again, and the PSP accepts a new devolução of it.
    const again = await refund(c.id);
    expect([again.status, again.body.amount]).toEqual([201, 4000]);
    await env.h.deps.jobs.drain();
    expect(await refundStatus(rawId, again.body.id)).toBe("IN_PROGRESS");
    await expectLedgerClean(env);
  });
});

describe("what the standard cannot do", () => {
  test("strategy cashout or a destinationKey is 400 REFUND_NOT_SUPPORTED saying why, and nothing changes", async () => {
    const { charge: c, pix, rawId } = await paidLive(env, 5000);
    const before = await balance(env);
    for (const body of [
      { strategy: "cashout" },
      { destinationKey: "pagador@example.com" },
      { strategy: "cashout", passFeeToTenant: true },
    ]) {
      const r = await refund(c.id, body);
      expect([r.status, r.body.error.code]).toEqual([400, "REFUND_NOT_SUPPORTED"]);
      expect(r.body.error.message).toContain("no payment initiation");
    }
    await env.h.deps.jobs.drain();
    expect(await refunds(rawId)).toEqual([]);
    expect(await balance(env)).toBe(before);
    expect(await simDevolucoes(env, pix.endToEndId)).toEqual([]);
    // strategy devolution is what a refund is here.
    const ok = await refund(c.id, { strategy: "devolution", amount: 100 });
    expect([ok.status, ok.body.status]).toEqual([201, "PENDING"]);
  });
});

describe("PSP failures", () => {
  test("a 503 on the PUT is retried by the job with the same id: exactly one devolução", async () => {
    const { charge: c, pix, rawId } = await paidLive(env, 6000);
    await env.sim.control("POST", "/_sim/faults/errors", {
      status: 503,
      count: 1,
      match: `PUT /pix/${pix.endToEndId}/devolucao`,
    });
    const r = await refund(c.id);
    await env.h.deps.jobs.drain();
    expect(await refundStatus(rawId, r.body.id)).toBe("PENDING");
    expect(await simDevolucoes(env, pix.endToEndId)).toEqual([]);
    await advance(env, 30);
    expect(await refundStatus(rawId, r.body.id)).toBe("IN_PROGRESS");
    expect((await simDevolucoes(env, pix.endToEndId)).map((d) => d.id)).toEqual([String(r.body.id).slice(3)]);
  });

  test("the PSP refusing our credentials leaves the refund PENDING, logs it at warn without a secret, and the refund completes once the PSP accepts again", async () => {
    const { charge: c, pix, rawId } = await paidLive(env, 6100);
    const before = await balance(env);
    const devolucoes = async () => (await env.sim.control("GET", "/_sim/state")).body.counts.devolucoes as number;
    const made = await devolucoes();
    // Every token now expired, and the token endpoint refuses our credentials until cleared.
    expect((await env.sim.control("POST", "/_sim/tokens/expire", {})).status).toBe(200);
    expect((await env.sim.control("POST", "/_sim/faults/auth", { count: 1000 })).body.auth_failures).toBe(1000);
    const warnedBefore = env.warnings.length;
    const r = await refund(c.id);
    expect(r.status).toBe(201);
    expect(r.body.status).toBe("PENDING");
    expect(await balance(env)).toBe(before - 6100);

    await env.h.deps.jobs.drain(); // PUT -> 401, one fresh token refused -> auth failure
    expect(await refundStatus(rawId, r.body.id)).toBe("PENDING");
    expect(await devolucoes()).toBe(made);
    await advance(env, 30); // tried again 30 s later: still refused, still as it was
    expect(await refundStatus(rawId, r.body.id)).toBe("PENDING");
    expect(await devolucoes()).toBe(made);
    expect((await charge(env, c.id)).status).toBe("paid");
    expect(await balance(env)).toBe(before - 6100);

    const warned = env.warnings
      .slice(warnedBefore)
      .filter((w) => w.msg === "refund: the provider refused our credentials; retrying later");
    expect(warned.length).toBeGreaterThanOrEqual(2);
    expect(warned[0]).toMatchObject({ level: 40, refundId: r.body.id, code: "invalid_client" });
    expect(String(warned[0]!.reason)).toContain("401");
    const logged = JSON.stringify(env.warnings);
    const { client_secret, private_key } = env.fx.init.body as { client_secret: string; private_key: string };
    expect(logged).not.toContain(client_secret);
    expect(logged).not.toContain(private_key.split("\n")[1]!);
    expect(logged).not.toContain(Buffer.from(`${env.fx.init.body.client_id}:${client_secret}`).toString("base64"));
    expect(logged).not.toMatch(/Bearer|Basic /i);

    // The PSP accepts again: the next try submits the devolução under the refund's id, once.
    expect((await env.sim.control("DELETE", "/_sim/faults", {})).body.auth_failures).toBe(0);
    await advance(env, 30);
    expect(await refundStatus(rawId, r.body.id)).toBe("IN_PROGRESS");
    const devId = String(r.body.id).slice(3);
    expect((await simDevolucoes(env, pix.endToEndId)).map((d) => [d.id, d.valor])).toEqual([[devId, "61.00"]]);
    await finish(pix.endToEndId, devId, "settle");
    await env.h.deps.jobs.drain();
    expect(await refundStatus(rawId, r.body.id)).toBe("REFUNDED");
    expect((await charge(env, c.id)).status).toBe("refunded");
    expect(await eventsOf(env, rawId, "charge.refunded")).toHaveLength(1);
    expect(await balance(env)).toBe(before - 6100);
    await expectLedgerClean(env);
  });

  test("a lost answer (the PSP made the devolução, then answered 503) is resolved by the replay: exactly one devolução", async () => {
    const { charge: c, pix, rawId } = await paidLive(env, 6100);
    await env.sim.control("POST", "/_sim/faults/errors", {
      status: 503,
      count: 1,
      after: true,
      match: `PUT /pix/${pix.endToEndId}/devolucao`,
    });
    const r = await refund(c.id);
    await env.h.deps.jobs.drain();
    expect(await refundStatus(rawId, r.body.id)).toBe("PENDING");
    expect(await simDevolucoes(env, pix.endToEndId)).toHaveLength(1);
    await advance(env, 30);
    expect(await refundStatus(rawId, r.body.id)).toBe("IN_PROGRESS");
    expect((await simDevolucoes(env, pix.endToEndId)).map((d) => [d.id, d.valor])).toEqual([
      [String(r.body.id).slice(3), "61.00"],
    ]);
  });
});

describe("devolução callbacks", () => {
  test("a forged callback naming our devolução as DEVOLVIDO changes nothing: Cofre asks the PSP", async () => {
    const { charge: c, pix, rawId } = await paidLive(env, 7000);
    const before = await balance(env);
    const r = await refund(c.id);
    await env.h.deps.jobs.drain();
    const devId = String(r.body.id).slice(3);
    const forged = {
      ...pix,
      devolucoes: [
        {
          id: devId,
          rtrId: "D99999999202611201200forgedforged",
          valor: "70.00",
          status: "DEVOLVIDO",
          horario: { solicitacao: "2026-11-20T12:00:00Z" },
        },
      ],
    };
    const cb = await env.h.call("POST", `/v1/provider-webhooks/pix/${env.connectionId}/pix`, {
      body: { pix: [forged] },
    });
    expect([cb.status, cb.text]).toEqual([200, ""]);
    await env.h.deps.jobs.drain();
    expect(await refundStatus(rawId, r.body.id)).toBe("IN_PROGRESS");
    expect((await charge(env, c.id)).status).toBe("paid");
    expect(await eventsOf(env, rawId, "charge.refunded")).toHaveLength(0);
    expect(await balance(env)).toBe(before - 7000);
  });
});

// Last: it deletes the account's connection.
describe("a deleted connection", () => {
  test("a charge it created is still refunded through its connection row", async () => {
    const { charge: c, pix, rawId } = await paidLive(env, 8000);
    expect((await env.h.call("DELETE", connectionPath(env.a.accountId), { bearer: OPERATOR_TOKEN })).status).toBe(204);
    const r = await refund(c.id, { amount: 500 });
    expect([r.status, r.body.status]).toEqual([201, "PENDING"]);
    await env.h.deps.jobs.drain();
    expect(await refundStatus(rawId, r.body.id)).toBe("IN_PROGRESS");
    await env.sim.control("POST", `/_sim/pix/${pix.endToEndId}/devolucao/${String(r.body.id).slice(3)}/settle`, {
      wait_callback: false,
    });
    await advance(env, 15);
    expect(await refundStatus(rawId, r.body.id)).toBe("REFUNDED");
  });
});
