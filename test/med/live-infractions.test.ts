/**
 * Live MED from the PSP, end to end against psp-sim through an `efi` connection over mTLS (issue
 * 27 §3; extensions.md "Live MED from the PSP"): the 5-minute poll of `GET /v2/gn/infracoes` opens
 * one case per infraction on the charge with its end-to-end id, holding the claimed `valor`
 * (a partial claim only that much), with the PSP's analysis deadline; ACEITA upholds it,
 * REJEITADA and CANCELADA_EFI close it in the merchant's favour; the operator forwards the
 * merchant's appeal as the defence; an infraction on an unknown Pix is logged once and listed by
 * reconciliation.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getBalance } from "../../src/domain/ledger";
import { INFRACTION_POLL_EVERY_MS } from "../../src/domain/reconciliation/infractions";
import { advance, charge, expectLedgerClean, paidLive, startLive, type LiveEnv } from "../pix-provider/live-support";
import { OPERATOR_TOKEN } from "../pix-provider/support";

let env: LiveEnv;
beforeAll(async () => {
  env = await startLive({ settings: { settlementDelaySeconds: 0 } }, { type: "efi" });
});
afterAll(async () => {
  await env.stop();
});

const POLL_S = INFRACTION_POLL_EVERY_MS / 1000;
const poll = () => advance(env, POLL_S);
const available = async () => (await getBalance(env.h.deps.store.read, env.a.accountId, true, "BRL")).available;
const casesOf = async (chargeId: string) =>
  ((await env.h.call("GET", `/v1/med/cases?charge_id=${chargeId}`, { key: env.a.liveKey })).body.data ?? []) as Record<
    string,
    unknown
  >[];
const openAtSim = async (body: Record<string, unknown>, query = "") => {
  const r = await env.sim.control("POST", `/_sim/infractions${query}`, body);
  expect(r.status).toBe(201);
  return r.body.infracao as { idInfracao: string; valor: number; dadosAnalise: { prazoFinalizacao: string } };
};
const endAtSim = async (id: string, how: "accept" | "reject" | "cancel") =>
  expect((await env.sim.control("POST", `/_sim/infractions/${id}/${how}`)).status).toBe(200);
const submitDefense = (caseId: string) =>
  env.h.call("POST", `/v1/operator/med/cases/${caseId}/submit-defense`, { bearer: OPERATOR_TOKEN, body: {} });

describe("an infraction at the PSP", () => {
  test("opens one MED case on the charge with its end-to-end id, holding the claimed amount, whatever the number of polls", async () => {
    const { charge: c, pix } = await paidLive(env, 1000);
    const before = await available();
    const inf = await openAtSim({ endToEndId: pix.endToEndId, tipoSituacao: "golpe" });
    await poll();
    await poll();
    await poll();
    const cases = await casesOf(c.id);
    expect(cases.map((k) => [k.type, k.status, k.amount, k.charge_id, k.response_deadline, k.money_outcome])).toEqual([
      ["med", "open", 1000, c.id, new Date(inf.dadosAnalise.prazoFinalizacao).toISOString(), null],
    ]);
    expect((await charge(env, c.id)).status).toBe("disputed");
    expect(await available()).toBe(before - 1000);
  });

  test("ACEITA upholds the case: rejected with money_outcome lost, and later polls open no second case", async () => {
    const { charge: c, pix } = await paidLive(env, 800);
    const inf = await openAtSim({ endToEndId: pix.endToEndId });
    await poll();
    await endAtSim(inf.idInfracao, "accept");
    await poll();
    // Polled again once final: still the one case, unchanged.
    await poll();
    expect((await casesOf(c.id)).map((k) => [k.status, k.money_outcome])).toEqual([["rejected", "lost"]]);
    expect((await charge(env, c.id)).status).toBe("disputed");
    await expectLedgerClean(env);
  });

  test("REJEITADA closes the case in the merchant's favour: closed, refunded_to_merchant, the charge paid again and the hold released", async () => {
    const { charge: c, pix } = await paidLive(env, 700);
    const before = await available();
    const inf = await openAtSim({ endToEndId: pix.endToEndId });
    await poll();
    expect(await available()).toBe(before - 700);
    await endAtSim(inf.idInfracao, "reject");
    await poll();
    expect((await casesOf(c.id)).map((k) => [k.status, k.money_outcome])).toEqual([["closed", "refunded_to_merchant"]]);
    expect((await charge(env, c.id)).status).toBe("paid");
    expect(await available()).toBe(before);
  });

  test("CANCELADA_EFI closes the case with refunded_to_merchant as well", async () => {
    const { charge: c, pix } = await paidLive(env, 650);
    const inf = await openAtSim({ endToEndId: pix.endToEndId });
    await poll();
    await endAtSim(inf.idInfracao, "cancel");
    await poll();
    expect((await casesOf(c.id)).map((k) => [k.status, k.money_outcome])).toEqual([["closed", "refunded_to_merchant"]]);
  });

  test("claiming part of the charge holds only that part, with the charge disputed", async () => {
    const { charge: c, pix } = await paidLive(env, 1000);
    const before = await available();
    await openAtSim({ endToEndId: pix.endToEndId, valor: "4.00" });
    await poll();
    expect((await casesOf(c.id)).map((k) => [k.status, k.amount])).toEqual([["open", 400]]);
    expect(await available()).toBe(before - 400);
    expect((await charge(env, c.id)).status).toBe("disputed");
  });

  test("naming an end-to-end id Cofre does not know is logged once, opens nothing and is listed by reconciliation", async () => {
    const e2e = "E99999999202611201200UNKNOWN0001";
    const inf = await openAtSim({ endToEndId: e2e, valor: "12.34" });
    await poll();
    await poll();
    const logged = env.warnings.filter((w) => w.infraction_id === inf.idInfracao);
    expect(logged.map((w) => [w.msg, w.end_to_end_id])).toEqual([
      ["med: an infraction names an end-to-end id Cofre does not know", e2e],
    ]);
    const day = new Date(env.h.clock.nowMs() - 3 * 3600_000).toISOString().slice(0, 10);
    const r = await env.h.call("GET", `/v1/reconciliation?date=${day}`, { key: env.a.liveKey });
    expect(r.status).toBe(200);
    expect(r.body.differences.filter((d: { reference_id: string }) => d.reference_id === inf.idInfracao)).toEqual([
      {
        kind: "missing_in_cofre",
        end_to_end_id: e2e,
        reference_id: inf.idInfracao,
        psp_amount: 1234,
        cofre_amount: null,
        healed: false,
      },
    ]);
  });
});

describe("POST /v1/operator/med/cases/{id}/submit-defense", () => {
  test("forwards the merchant's appeal to the PSP as the defence, once", async () => {
    const { charge: c, pix } = await paidLive(env, 900);
    const inf = await openAtSim({ endToEndId: pix.endToEndId });
    await poll();
    const [kase] = await casesOf(c.id);
    const reason = "Mercadoria entregue, rastreio anexado.";
    const appeal = await env.h.call("POST", `/v1/med/cases/${kase!.id}/appeal`, {
      key: env.a.liveKey,
      body: { reason },
    });
    expect(appeal.status).toBe(200);
    const r = await submitDefense(String(kase!.id));
    expect([r.status, r.body.id, r.body.status, r.body.appeal_reason]).toEqual([200, kase!.id, "appealed", reason]);
    const at = (await env.sim.control("GET", "/_sim/infractions")).body.infracoes.find(
      (i: { idInfracao: string }) => i.idInfracao === inf.idInfracao,
    );
    expect([at.status, at.defesa]).toEqual(["EM_DEFESA", reason]);
    const again = await submitDefense(String(kase!.id));
    expect([again.status, again.body.error.code]).toEqual([400, "invalid_state"]);
    // The PSP rejects the claim after the defence: the case closes in the merchant's favour.
    await endAtSim(inf.idInfracao, "reject");
    await poll();
    expect((await casesOf(c.id)).map((k) => [k.status, k.money_outcome])).toEqual([["closed", "refunded_to_merchant"]]);
  });

  test("refuses a case that is not appealed, one not opened from a PSP infraction, and an unknown case", async () => {
    const { charge: c, pix } = await paidLive(env, 500);
    await openAtSim({ endToEndId: pix.endToEndId });
    await poll();
    const [kase] = await casesOf(c.id);
    const open = await submitDefense(String(kase!.id));
    expect([open.status, open.body.error.code]).toEqual([400, "invalid_state"]);
    const other = await paidLive(env, 300);
    const manual = await env.h.call("POST", `/v1/operator/charges/${other.charge.id}/med`, {
      bearer: OPERATOR_TOKEN,
      body: {},
    });
    expect(manual.status).toBe(201);
    const notPsp = await submitDefense(manual.body.id);
    expect([notPsp.status, notPsp.body.error.code]).toEqual([400, "invalid_state"]);
    const missing = await submitDefense("med_00000000000000000000000000000000");
    expect([missing.status, missing.body.error.code]).toEqual([404, "not_found"]);
    const noToken = await env.h.call("POST", `/v1/operator/med/cases/${kase!.id}/submit-defense`, { body: {} });
    expect(noToken.status).toBe(401);
  });
});
