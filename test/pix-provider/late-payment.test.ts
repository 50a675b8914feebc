/**
 * A live Pix that must go back is returned through the connection, end to end against psp-sim
 * over real mTLS (interface.md charge status table: "money is returned automatically to the
 * payer as a Pix return addressed by the original end-to-end id"; issue 14 §3 "a payment that
 * arrives after expiry"): an underpaid Pix, one paid after `expires_at`, one paid on a charge
 * already expired or cancelled, and one from another payer under the payer lock each get one
 * devolução of the whole Pix (natureza ORIGINAL, id = the devolution id in
 * `method_details.PIX.return`), followed to DEVOLVIDO or NAO_REALIZADO, with no ledger movement.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { methodDetails } from "../../src/domain/payments/views";
import { sweepReceivedPix } from "../../src/domain/pix-provider/sweep";
import { newEndToEndId } from "../../src/pix/ids";
import { SIM_PAYER_ISPB } from "../../src/psp-sim/core";
import { validCpf } from "../psp-sim/support";
import {
  advance,
  balance,
  charge,
  createLive,
  eventsOf,
  expectLedgerClean,
  payAtSim,
  simDevolucoes,
  startLive,
  type LiveEnv,
} from "./live-support";

let env: LiveEnv;
beforeAll(async () => {
  env = await startLive({ settings: { payerLockEnabled: true } });
});
afterAll(async () => {
  await env.stop();
});

/** `method_details.PIX.return` of raw transaction `rawId`, as stored. */
const returnOf = async (rawId: string) =>
  methodDetails((await env.h.deps.store.read.charges.byId(rawId))!).PIX?.return as Record<string, unknown> | undefined;
const callback = (body: unknown) => env.h.call("POST", `/v1/provider-webhooks/pix/${env.connectionId}/pix`, { body });
const DEVOLUTION_RE = /^D\d{8}\d{12}[a-zA-Z0-9]{11}$/;

describe("an underpaid live Pix", () => {
  test("is returned whole once, the charge fails at once (its cob takes no further payment) and nothing is credited", async () => {
    const c = await createLive(env, { amount: 5000, metadata: { order: "A-1" } });
    const rawId = String(c.id).slice(3);
    const before = await balance(env);
    const pix = await payAtSim(env, c.pix.txid, { valor: "30.00" });
    await env.h.deps.jobs.drain(); // confirms the Pix, fails the charge, queues and submits the return
    const failed = await charge(env, c.id);
    expect(failed.status).toBe("failed");
    expect(failed.settlement).toEqual({});
    expect(failed.metadata).toEqual({
      order: "A-1",
      failure: { reason: "amount_mismatch", providerErrorCode: null, ttlSeconds: 3600, at: failed.metadata.failure.at },
    });
    expect(Date.parse(failed.metadata.failure.at)).toBe(env.h.clock.nowMs());
    expect(await eventsOf(env, rawId, "charge.failed")).toHaveLength(1);
    expect(JSON.parse((await eventsOf(env, rawId, "charge.failed"))[0]!.body).data.object).toMatchObject({
      id: c.id,
      status: "failed",
    });
    // The PSP agrees: the cob is concluded, so the charge could never have been paid again.
    expect(
      (await env.sim.control("GET", "/_sim/cobs")).body.cobs.find((x: { txid: string }) => x.txid === c.pix.txid)
        ?.status,
    ).toBe("CONCLUIDA");
    const ret = (await returnOf(rawId))!;
    expect(ret).toMatchObject({
      endToEndId: pix.endToEndId,
      amount: 3000,
      reason: "amount_mismatch",
      status: "IN_PROGRESS",
    });
    expect(String(ret.id)).toMatch(DEVOLUTION_RE);
    let devs = await simDevolucoes(env, pix.endToEndId);
    expect(devs.map((d) => [d.id, d.valor, d.natureza, d.status])).toEqual([
      [ret.id, "30.00", "ORIGINAL", "EM_PROCESSAMENTO"],
    ]);

    // Repeated callbacks, polls and a sweep report the same Pix: still one devolução.
    for (let i = 0; i < 2; i++) expect((await callback({ pix: [pix] })).status).toBe(200);
    await sweepReceivedPix(env.h.deps);
    await env.h.deps.jobs.drain();
    await advance(env, 20);
    expect(await simDevolucoes(env, pix.endToEndId)).toHaveLength(1);

    const settled = await env.sim.control("POST", `/_sim/pix/${pix.endToEndId}/devolucao/${ret.id}/settle`, {
      wait_callback: true,
    });
    expect(settled.status).toBe(200);
    await env.h.deps.jobs.drain(); // the callback names the devolução: Cofre asks the PSP
    expect(await returnOf(rawId)).toMatchObject({ id: ret.id, status: "RETURNED" });
    devs = await simDevolucoes(env, pix.endToEndId);
    expect(devs.map((d) => [d.id, d.status])).toEqual([[ret.id, "DEVOLVIDO"]]);
    expect(await balance(env)).toBe(before);
    expect(await eventsOf(env, rawId, "charge.paid")).toHaveLength(0);
    expect(await eventsOf(env, rawId, "charge.failed")).toHaveLength(1);
    expect((await charge(env, c.id)).status).toBe("failed");
    await expectLedgerClean(env);
  });

  test("with its callback dropped, the next poll finds the concluded cob and fails the charge the same way", async () => {
    const c = await createLive(env, { amount: 5100 });
    const rawId = String(c.id).slice(3);
    await env.sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    const pix = await payAtSim(env, c.pix.txid, { valor: "51.10", wait_callback: false }); // overpaid
    await env.h.deps.jobs.drain();
    expect((await charge(env, c.id)).status).toBe("pending"); // nothing told Cofre yet
    await advance(env, 15); // the first poll: GET /cob/{txid} is CONCLUIDA with that Pix
    const failed = await charge(env, c.id);
    expect(failed.status).toBe("failed");
    expect(failed.metadata.failure.reason).toBe("amount_mismatch");
    expect(await returnOf(rawId)).toMatchObject({
      endToEndId: pix.endToEndId,
      amount: 5110,
      reason: "amount_mismatch",
      status: "IN_PROGRESS",
    });
    expect(await simDevolucoes(env, pix.endToEndId)).toHaveLength(1);
    await advance(env, 3600); // later polls and the charge's expiry change nothing more
    expect((await charge(env, c.id)).status).toBe("failed");
    expect(await eventsOf(env, rawId, "charge.failed")).toHaveLength(1);
    expect(await eventsOf(env, rawId, "charge.expired")).toHaveLength(0);
    expect(await simDevolucoes(env, pix.endToEndId)).toHaveLength(1);
  });
});

describe("two different Pix on one live charge", () => {
  test("each is returned under its own record: the second never overwrites the first", async () => {
    const c = await createLive(env, { amount: 5200 });
    const rawId = String(c.id).slice(3);
    const before = await balance(env);
    const first = await payAtSim(env, c.pix.txid, { valor: "52.01" }); // overpaid: the charge fails
    await env.h.deps.jobs.drain();
    expect((await charge(env, c.id)).status).toBe("failed");
    const firstRet = (await returnOf(rawId))!;
    expect(firstRet).toMatchObject({
      endToEndId: first.endToEndId,
      amount: 5201,
      reason: "amount_mismatch",
      status: "IN_PROGRESS",
    });

    // A PSP that still reports a second Pix on the concluded cob (written into the simulator's store).
    const second = {
      e2eid: newEndToEndId(new Date(env.h.clock.nowMs()), SIM_PAYER_ISPB),
      client_id: env.fx.init.body.client_id,
      txid: c.pix.txid,
      valor: 5200,
      chave: env.fx.init.body.pix_key,
      horario_ms: env.h.clock.nowMs(),
      info_pagador: null,
      pagador: null,
    };
    env.fx.sim.env.store.insertPix(second);
    expect(
      (
        await callback({
          pix: [
            {
              endToEndId: second.e2eid,
              txid: c.pix.txid,
              valor: "52.00",
              horario: new Date(second.horario_ms).toISOString(),
            },
          ],
        })
      ).status,
    ).toBe(200);
    await env.h.deps.jobs.drain(); // confirmed with GET /pix/{e2eid}, then returned

    const stored = methodDetails((await env.h.deps.store.read.charges.byId(rawId))!).PIX as {
      return: Record<string, unknown>;
      returns: Record<string, unknown>[];
    };
    expect(stored.return).toEqual(stored.returns[0]!); // the first return keeps its place
    expect(stored.returns.map((r) => [r.endToEndId, r.amount, r.reason, r.status])).toEqual([
      [first.endToEndId, 5201, "amount_mismatch", "IN_PROGRESS"],
      [second.e2eid, 5200, "late_payment", "IN_PROGRESS"],
    ]);
    const secondId = String(stored.returns[1]!.id);
    expect(secondId).toMatch(DEVOLUTION_RE);
    expect(secondId).not.toBe(firstRet.id);
    expect((await simDevolucoes(env, second.e2eid)).map((d) => [d.id, d.valor, d.natureza])).toEqual([
      [secondId, "52.00", "ORIGINAL"],
    ]);

    // Each devolução ends on its own record; the callback of one names only that one.
    await env.sim.control("POST", `/_sim/pix/${second.e2eid}/devolucao/${secondId}/settle`, { wait_callback: true });
    await env.h.deps.jobs.drain();
    await env.sim.control("POST", `/_sim/pix/${first.endToEndId}/devolucao/${firstRet.id}/fail`, {
      motivo: "Conta encerrada",
      wait_callback: true,
    });
    await env.h.deps.jobs.drain();
    const after = methodDetails((await env.h.deps.store.read.charges.byId(rawId))!).PIX as {
      return: Record<string, unknown>;
      returns: Record<string, unknown>[];
    };
    expect(after.returns.map((r) => [r.id, r.status])).toEqual([
      [firstRet.id, "FAILED"],
      [secondId, "RETURNED"],
    ]);
    expect(after.return).toMatchObject({
      id: firstRet.id,
      status: "FAILED",
      failureReason: "NAO_REALIZADO: Conta encerrada",
    });
    expect((await charge(env, c.id)).status).toBe("failed");
    expect(await balance(env)).toBe(before);
    expect(await eventsOf(env, rawId, "charge.paid")).toHaveLength(0);
    await expectLedgerClean(env);
  });
});

describe("a Pix after expiry", () => {
  test("paid after expires_at on a charge still waiting: the charge expires and the Pix is returned once", async () => {
    const c = await createLive(env, { amount: 7200, expires_in: 60 });
    const rawId = String(c.id).slice(3);
    const before = await balance(env);
    await advance(env, 20);
    await env.sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: `GET /cob/${c.pix.txid}` });
    await advance(env, 42); // 62 s: the expiry check failed, the charge still waits
    const pix = await payAtSim(env, c.pix.txid); // paid at 62 s
    await env.h.deps.jobs.drain();
    expect((await charge(env, c.id)).status).toBe("expired");
    const ret = (await returnOf(rawId))!;
    expect(ret).toMatchObject({ endToEndId: pix.endToEndId, amount: 7200, reason: "late_payment" });
    const devs = await simDevolucoes(env, pix.endToEndId);
    expect(devs.map((d) => [d.id, d.valor, d.natureza])).toEqual([[ret.id, "72.00", "ORIGINAL"]]);
    await advance(env, 60); // more checks and the sweep: nothing more
    expect(await simDevolucoes(env, pix.endToEndId)).toHaveLength(1);
    expect(await balance(env)).toBe(before);
    expect(await eventsOf(env, rawId, "charge.paid")).toHaveLength(0);
    await expectLedgerClean(env);
  });

  test("paid on a charge already expired: the callback is confirmed and the Pix returned once, however often it is reported", async () => {
    const c = await createLive(env, { amount: 7400, expires_in: 60 });
    const rawId = String(c.id).slice(3);
    await advance(env, 61);
    expect((await charge(env, c.id)).status).toBe("expired");
    const before = await balance(env);
    const pix = await payAtSim(env, c.pix.txid);
    await env.h.deps.jobs.drain();
    expect((await charge(env, c.id)).status).toBe("expired");
    const ret = (await returnOf(rawId))!;
    expect(ret).toMatchObject({
      endToEndId: pix.endToEndId,
      amount: 7400,
      reason: "late_payment",
      status: "IN_PROGRESS",
    });
    for (let i = 0; i < 2; i++) expect((await callback({ pix: [pix] })).status).toBe(200);
    const swept = await sweepReceivedPix(env.h.deps);
    expect(swept.accepted).toBeGreaterThanOrEqual(1);
    await env.h.deps.jobs.drain();
    expect((await simDevolucoes(env, pix.endToEndId)).map((d) => [d.id, d.natureza])).toEqual([[ret.id, "ORIGINAL"]]);
    await env.sim.control("POST", `/_sim/pix/${pix.endToEndId}/devolucao/${ret.id}/settle`, { wait_callback: false });
    await advance(env, 15); // dropped or not, the next check of the return finds DEVOLVIDO
    expect((await returnOf(rawId))!.status).toBe("RETURNED");
    expect(await balance(env)).toBe(before);
    await expectLedgerClean(env);
  });

  test("a forged callback naming an unknown Pix on an expired charge returns nothing", async () => {
    const c = await createLive(env, { amount: 7500, expires_in: 60 });
    await advance(env, 61);
    const queued = await env.h.deps.jobs.pending("pix.return");
    const forged = {
      endToEndId: "E99999999202611201200forgedforged3",
      txid: c.pix.txid,
      valor: "75.00",
      horario: new Date(env.h.clock.nowMs()).toISOString(),
    };
    expect((await callback({ pix: [forged] })).status).toBe(200);
    await env.h.deps.jobs.drain();
    expect(await returnOf(String(c.id).slice(3))).toBeUndefined();
    expect(await env.h.deps.jobs.pending("pix.return")).toBe(queued);
  });
});

describe("a Pix on a cancelled charge", () => {
  test("a Pix the PSP took before the cob was removed is returned once, the charge stays cancelled", async () => {
    const c = await createLive(env, { amount: 7600 });
    const rawId = String(c.id).slice(3);
    // The race: Cofre cancelled the charge while the payer's Pix was settling at the PSP.
    await env.h.deps.store.tx((uow) => uow.charges.update(rawId, { status: "CANCELLED" }));
    const before = await balance(env);
    const pix = await payAtSim(env, c.pix.txid);
    await env.h.deps.jobs.drain();
    expect((await charge(env, c.id)).status).toBe("cancelled");
    expect(await returnOf(rawId)).toMatchObject({
      endToEndId: pix.endToEndId,
      amount: 7600,
      reason: "late_payment",
      status: "IN_PROGRESS",
    });
    expect(await simDevolucoes(env, pix.endToEndId)).toHaveLength(1);
    expect(await balance(env)).toBe(before);
  });
});

describe("a return the PSP does not make", () => {
  test("NAO_REALIZADO marks the return FAILED with the motivo and is logged at warn; the ledger does not move", async () => {
    const c = await createLive(env, { amount: 6000 });
    const rawId = String(c.id).slice(3);
    const before = await balance(env);
    const pix = await payAtSim(env, c.pix.txid, { valor: "60.01" }); // overpaid
    await env.h.deps.jobs.drain();
    const ret = (await returnOf(rawId))!;
    expect(ret).toMatchObject({ amount: 6001, status: "IN_PROGRESS" });
    await env.sim.control("POST", `/_sim/pix/${pix.endToEndId}/devolucao/${ret.id}/fail`, {
      motivo: "Conta encerrada",
      wait_callback: true,
    });
    await env.h.deps.jobs.drain();
    expect(await returnOf(rawId)).toMatchObject({ status: "FAILED", failureReason: "NAO_REALIZADO: Conta encerrada" });
    const warned = env.warnings.filter(
      (w) => String(w.msg).startsWith("pix return: the PSP did not return the Pix") && w.transactionId === rawId,
    );
    expect(warned.map((w) => [w.transactionId, w.endToEndId, w.returnId])).toEqual([[rawId, pix.endToEndId, ret.id]]);
    await advance(env, 60);
    expect(await simDevolucoes(env, pix.endToEndId)).toHaveLength(1); // not tried again
    expect(await balance(env)).toBe(before);
    await expectLedgerClean(env);
  });
});

describe("the payer lock", () => {
  test("a Pix from another payer is refused (charge refunded, nothing credited) and returned through the PSP under the recorded id", async () => {
    const payer = validCpf();
    const c = await createLive(env, {
      amount: 6600,
      customer: { name: "Cliente Certo", document: payer },
      expected_payer_tax_id: payer,
    });
    const rawId = String(c.id).slice(3);
    const before = await balance(env);
    const pix = await payAtSim(env, c.pix.txid, { pagador: { nome: "Outra Pessoa", cpf: validCpf() } });
    await env.h.deps.jobs.drain();
    expect((await charge(env, c.id)).status).toBe("refunded");
    const ret = (await returnOf(rawId))!;
    expect(ret).toMatchObject({
      endToEndId: pix.endToEndId,
      amount: 6600,
      reason: "payer_mismatch",
      status: "IN_PROGRESS",
    });
    expect((await simDevolucoes(env, pix.endToEndId)).map((d) => [d.id, d.valor, d.natureza])).toEqual([
      [ret.id, "66.00", "ORIGINAL"],
    ]);
    expect(await balance(env)).toBe(before);
    await expectLedgerClean(env);
  });
});
