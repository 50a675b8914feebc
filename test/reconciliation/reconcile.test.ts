/**
 * Reconciliation with the PSP, end to end against psp-sim through an `efi` connection over mTLS
 * (issue 27 §2; extensions.md "Statement, exports and reconciliation"): a São Paulo day that
 * agrees is `matched`; a day with a Pix received outside Cofre, a send Cofre never recorded, a
 * received and a sent amount that differ, a send whose outcome differs and a charge the PSP does
 * not list shows each difference; a Pix on one of our cobs that Cofre missed is healed through the
 * confirmation path; a devolução whose outcome differs is listed; the morning job stores the
 * previous day and the list shows the last 30 days.
 * The test clocks start on 2026-11-20 12:00 UTC (09:00 in São Paulo); each test moves a day on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginToken } from "../auth/support";
import { fund, idem } from "../payouts/support";
import { advance, charge, createLive, paidLive, startLive, type LiveEnv } from "../pix-provider/live-support";
import { validCpf } from "../psp-sim/support";

const DIFFERENCE_FIELDS = ["cofre_amount", "end_to_end_id", "healed", "kind", "psp_amount", "reference_id"];
/** A test that moves both clocks a day (every sweep and poll of the day runs against the simulator). */
const DAY_TIMEOUT = 60_000;
const RESULT_FIELDS = ["cofre", "date", "differences", "object", "psp", "reconciled_at", "status"];

let env: LiveEnv;
let dest: { id: string };
beforeAll(async () => {
  env = await startLive(
    { settings: { payoutFeeFixed: 0, settlementDelaySeconds: 0 } },
    { type: "efi", sim: { sendResults: "settle" } },
  );
  const token = await loginToken(env.h, env.a.email, env.a.password);
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

const reconcile = (date: string, apiKey = env.a.liveKey) =>
  env.h.call("GET", `/v1/reconciliation?date=${date}`, { key: apiKey });
const today = () => new Date(env.h.clock.nowMs() - 3 * 3600_000).toISOString().slice(0, 10);

/** A live payout of `amount`, sent (and with sendResults settle, paid) before it returns. */
async function payout(amount: number): Promise<{ id: string; end_to_end_id: string | null; status: string }> {
  const r = await env.h.call("POST", "/v1/payouts", {
    key: env.a.liveKey,
    body: { amount, destination_id: dest.id },
    headers: { "idempotency-key": idem() },
  });
  expect(r.status).toBe(201);
  return settled(r.body.id);
}

/** The payout once the simulator's rule (or a control route) and its callback have ended it, or still processing (manual mode). */
async function settled(id: string): Promise<{ id: string; end_to_end_id: string | null; status: string }> {
  const manual = (await env.sim.control("GET", "/_sim/state")).body.send_results === "manual";
  for (let i = 0; ; i++) {
    await env.h.deps.jobs.drain();
    const p = (await env.h.call("GET", `/v1/payouts/${id}`, { key: env.a.liveKey })).body;
    // The simulator ends a send in the background and calls back: wait for that callback's confirmation.
    if (p.status === "paid" || p.status === "failed" || (manual && p.status === "processing") || i === 200) return p;
    await Bun.sleep(10);
  }
}

describe("GET /v1/reconciliation?date=", () => {
  test("a day where the PSP and Cofre hold the same Pix received and sent is matched, with both sides' totals", async () => {
    const { pix } = await paidLive(env, 1000);
    const po = await payout(500);
    expect([po.status, typeof po.end_to_end_id]).toEqual(["paid", "string"]);
    const r = await reconcile("2026-11-20");
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(RESULT_FIELDS);
    expect(r.body).toMatchObject({
      object: "reconciliation",
      date: "2026-11-20",
      status: "matched",
      psp: { received: { count: 1, amount: 1000 }, sent: { count: 1, amount: 500 } },
      cofre: { received: { count: 1, amount: 1000 }, sent: { count: 1, amount: 500 } },
      differences: [],
    });
    expect(pix.endToEndId).toHaveLength(32);
  });

  test(
    "a day with each kind of difference lists every one with its end-to-end id, reference and both amounts",
    async () => {
      await advance(env, 86_400);
      const day = today();
      expect(day).toBe("2026-11-21");
      // A Pix to the key that never named a cob: Cofre never hears of it.
      const outside = await env.sim.control("POST", "/_sim/pix/receive", {
        valor: "7.00",
        pagador: { nome: "Alguém", cpf: validCpf() },
      });
      expect(outside.status).toBe(201);
      // A send made at the PSP that Cofre never asked for.
      const foreign = await env.sim.control("POST", "/_sim/sends/record", { valor: "3.00" });
      expect(foreign.status).toBe(201);
      // A received Pix whose amount the PSP holds otherwise.
      const paid = await paidLive(env, 2000);
      expect((await env.sim.control("POST", `/_sim/pix/${paid.pix.endToEndId}/amend`, { valor: "20.50" })).status).toBe(
        200,
      );
      // A send whose amount the PSP holds otherwise.
      const sentOff = await payout(400);
      expect(
        (await env.sim.control("POST", `/_sim/sends/${sentOff.id.slice(3)}/amend`, { valor: "4.10" })).status,
      ).toBe(200);
      // A send the PSP made while Cofre still thinks it is in flight (its callback lost).
      expect((await env.sim.control("POST", "/_sim/sends/results", { mode: "manual" })).status).toBe(200);
      const inFlight = await payout(600);
      expect(inFlight.status).toBe("processing");
      expect((await env.sim.control("POST", "/_sim/callbacks/drop", { count: 1 })).status).toBe(200);
      expect(
        (await env.sim.control("POST", `/_sim/sends/${inFlight.id.slice(3)}/settle`, { wait_callback: true })).status,
      ).toBe(200);
      expect((await env.sim.control("POST", "/_sim/sends/results", { mode: "settle" })).status).toBe(200);
      // A charge Cofre settled that the PSP lists on another day.
      const moved = await paidLive(env, 900);
      expect(
        (await env.sim.control("POST", `/_sim/pix/${moved.pix.endToEndId}/amend`, { horario: "2026-11-19T15:00:00Z" }))
          .status,
      ).toBe(200);

      const r = await reconcile(day);
      expect(r.status).toBe(200);
      expect(r.body.status).toBe("mismatched");
      for (const d of r.body.differences) expect(Object.keys(d).sort()).toEqual(DIFFERENCE_FIELDS);
      const inFlightE2e = (await env.h.call("GET", `/v1/payouts/${inFlight.id}`, { key: env.a.liveKey })).body
        .end_to_end_id;
      const sortKey = (d: { kind: string; psp_amount: number | null; cofre_amount: number | null }) =>
        `${d.kind}:${d.psp_amount}:${d.cofre_amount}`;
      expect([...r.body.differences].sort((x, y) => sortKey(x).localeCompare(sortKey(y)))).toEqual([
        {
          kind: "amount_differs",
          end_to_end_id: paid.pix.endToEndId,
          reference_id: paid.charge.id,
          psp_amount: 2050,
          cofre_amount: 2000,
          healed: false,
        },
        {
          kind: "amount_differs",
          end_to_end_id: sentOff.end_to_end_id,
          reference_id: sentOff.id,
          psp_amount: 410,
          cofre_amount: 400,
          healed: false,
        },
        {
          kind: "missing_at_psp",
          end_to_end_id: moved.pix.endToEndId,
          reference_id: moved.charge.id,
          psp_amount: null,
          cofre_amount: 900,
          healed: false,
        },
        {
          kind: "missing_in_cofre",
          end_to_end_id: foreign.body.send.e2eId,
          reference_id: null,
          psp_amount: 300,
          cofre_amount: null,
          healed: false,
        },
        {
          kind: "missing_in_cofre",
          end_to_end_id: outside.body.pix.endToEndId,
          reference_id: null,
          psp_amount: 700,
          cofre_amount: null,
          healed: false,
        },
        {
          kind: "status_differs",
          end_to_end_id: inFlightE2e,
          reference_id: inFlight.id,
          psp_amount: 600,
          cofre_amount: 600,
          healed: false,
        },
      ]);
      // PSP: Pix 7.00 + 20.50 received; sends paid 3.00 + 4.10 + 6.00. Cofre: 20.00 + 9.00 received; 4.00 paid (6.00 in flight).
      expect([r.body.psp, r.body.cofre]).toEqual([
        { received: { count: 2, amount: 2750 }, sent: { count: 3, amount: 1310 } },
        { received: { count: 2, amount: 2900 }, sent: { count: 1, amount: 400 } },
      ]);
      // The day the PSP moved the Pix to: found by its end-to-end id, so not missing in Cofre.
      const other = await reconcile("2026-11-19");
      expect([other.status, other.body.differences]).toEqual([200, []]);
    },
    DAY_TIMEOUT,
  );

  test(
    "a Pix paid on one of our cobs that Cofre missed is settled through the confirmation path and shows as healed",
    async () => {
      await advance(env, 86_400);
      const day = today();
      const c = await createLive(env, { amount: 1500 });
      expect((await env.sim.control("POST", "/_sim/callbacks/drop", { count: 1 })).status).toBe(200);
      const p = await env.sim.control("POST", `/_sim/cob/${c.pix.txid}/pay`, {
        pagador: { nome: "Pagador", cpf: validCpf() },
        wait_callback: true,
      });
      expect(p.status).toBe(200);
      expect((await charge(env, c.id)).status).toBe("pending");
      const r = await reconcile(day);
      expect([r.status, r.body.status, r.body.differences]).toEqual([
        200,
        "mismatched",
        [
          {
            kind: "missing_in_cofre",
            end_to_end_id: p.body.pix.endToEndId,
            reference_id: c.id,
            psp_amount: 1500,
            cofre_amount: null,
            healed: true,
          },
        ],
      ]);
      await env.h.deps.jobs.drain();
      expect((await charge(env, c.id)).status).toBe("paid");
      const again = await reconcile(day);
      expect([again.body.status, again.body.differences, again.body.cofre.received]).toEqual([
        "matched",
        [],
        { count: 1, amount: 1500 },
      ]);
    },
    DAY_TIMEOUT,
  );
});

describe("devoluções of a received Pix", () => {
  test(
    "a devolução the PSP made while Cofre still has it in progress differs in status, and matches once Cofre's check sees it",
    async () => {
      await advance(env, 86_400);
      const day = today();
      const { charge: c, pix } = await paidLive(env, 3000);
      const r = await env.h.call("POST", `/v1/payments/${c.id}/refund`, {
        key: env.a.liveKey,
        body: { idempotencyKey: idem(), amount: 1000, strategy: "devolution" },
      });
      expect(r.status).toBe(201);
      await env.h.deps.jobs.drain();
      const devId = String(r.body.id).slice(3);
      expect((await env.sim.control("POST", "/_sim/callbacks/drop", { count: 1 })).status).toBe(200);
      expect(
        (
          await env.sim.control("POST", `/_sim/pix/${pix.endToEndId}/devolucao/${devId}/settle`, {
            wait_callback: true,
          })
        ).status,
      ).toBe(200);
      const before = await reconcile(day);
      expect([before.status, before.body.differences]).toEqual([
        200,
        [
          {
            kind: "status_differs",
            end_to_end_id: pix.endToEndId,
            reference_id: r.body.id,
            psp_amount: 1000,
            cofre_amount: 1000,
            healed: false,
          },
        ],
      ]);
      // Cofre's own check of the devolução in progress (15 s after it was asked) sees it DEVOLVIDO.
      await advance(env, 60);
      const after = await reconcile(day);
      expect([after.body.status, after.body.differences]).toEqual(["matched", []]);
    },
    DAY_TIMEOUT,
  );
});

describe("the morning job and GET /v1/reconciliation", () => {
  test(
    "the previous São Paulo day is reconciled every morning (again when it was reconciled before it ended) and the list shows the stored days of the last 30, newest first",
    async () => {
      await advance(env, 86_400);
      const day = today();
      await paidLive(env, 1200);
      // Reconciled during the day, then another Pix: the morning job does the whole day again.
      expect((await reconcile(day)).body.cofre.received).toEqual({ count: 1, amount: 1200 });
      await paidLive(env, 800);
      // The next morning (09:00 in São Paulo): the hourly job has reconciled `day` by itself.
      await advance(env, 86_400);
      const list = await env.h.call("GET", "/v1/reconciliation", { key: env.a.liveKey });
      expect(list.status).toBe(200);
      expect(Object.keys(list.body).sort()).toEqual(["data", "object"]);
      expect(list.body.data.map((d: { date: string; status: string }) => [d.date, d.status])).toEqual([
        [day, "matched"],
        ["2026-11-23", "matched"],
        ["2026-11-22", "matched"],
        ["2026-11-21", "mismatched"],
        ["2026-11-20", "matched"],
        ["2026-11-19", "matched"],
      ]);
      expect([list.body.data[0].psp.received, list.body.data[0].cofre.received]).toEqual([
        { count: 2, amount: 2000 },
        { count: 2, amount: 2000 },
      ]);
    },
    DAY_TIMEOUT,
  );
});

describe("GET /v1/reconciliation refuses", () => {
  test("a test key with 403 live_mode_only", async () => {
    const r = await reconcile("2026-11-20", env.a.testKey);
    expect([r.status, r.body.error.code]).toEqual([403, "live_mode_only"]);
    const l = await env.h.call("GET", "/v1/reconciliation", { key: env.a.testKey });
    expect([l.status, l.body.error.code]).toEqual([403, "live_mode_only"]);
  });

  test("a date that is not a calendar day, a future day or an unknown parameter with 400 naming it", async () => {
    for (const q of ["date=2026-02-30", "date=20261120", "date=2099-01-01", "day=2026-11-20"]) {
      const r = await env.h.call("GET", `/v1/reconciliation?${q}`, { key: env.a.liveKey });
      expect([q, r.status, r.body.error.code, r.body.error.param]).toEqual([
        q,
        400,
        "invalid_request",
        q.split("=")[0],
      ]);
    }
  });

  test("an account without a Pix provider connection with 422", async () => {
    const other = await env.h.seedAccount({ name: "Sem Conexão" });
    const r = await reconcile("2026-11-20", other.liveKey);
    expect([r.status, r.body.error.code]).toEqual([422, "unprocessable_entity"]);
  });

  test("a call without credentials with 401", async () => {
    const r = await env.h.call("GET", "/v1/reconciliation?date=2026-11-20");
    expect(r.status).toBe(401);
  });
});
