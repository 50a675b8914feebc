/**
 * The send intent of a live payout (src/domain/payouts/jobs.ts): `processing` and `send_attempts`
 * are COMMITTED before the PSP hears of a send, also under SQLite's group commit (serve), where a
 * unit of work returns before its turn's COMMIT; and a run that dies after its intent was committed
 * (between the claim and the send) leaves a payout the next run sends exactly once, asking first.
 * A scripted PSP keeps its sends by `sendId` as Efí does.
 */
import { describe, expect, test } from "bun:test";
import { enableGroupCommit, flushGroupCommit } from "../../src/store/sqlite/group-commit";
import { sandboxFaultStore } from "../../src/domain/charges/faults";
import { ProviderRegistry } from "../../src/domain/providers/registry";
import { createSandboxProvider } from "../../src/providers/sandbox";
import type { PaymentProvider, SendOutcome, SendRequest } from "../../src/domain/providers/types";
import type { Harness } from "../support/harness";
import { dbOf } from "../support/db";
import { testDb } from "../support/test-db";
import { available, destination, fund, payout, setup } from "./support";

const CONNECTION = "ppc_fake0000000000000000000000000002";

/** What the PSP saw of the payout in the database when a send reached it. */
interface SeenAtSend {
  resumed: boolean;
  /** An uncommitted SQLite group was open (null on PostgreSQL: every unit is committed when it returns). */
  groupOpen: boolean;
  /** The payout as committed: read outside the store (a second connection's view on PostgreSQL). */
  committed: { status: string; send_attempts: number } | undefined;
}

/**
 * A PSP with a send book; `die` scripts a run that dies at the send: before (nothing sent) or after the PSP took it.
 */
function psp(h: Harness) {
  const sent = new Map<string, SendRequest>();
  const seen: SeenAtSend[] = [];
  const script = { die: null as null | "before_psp" | "after_psp" };
  const provider = {
    name: "scripted_psp",
    methods: new Set(["PIX"]),
    connectionId: CONNECTION,
    async send(_ctx: unknown, req: SendRequest): Promise<SendOutcome> {
      const groupOpen = h.deps.store.durable() !== null;
      const committed = await testDb(h.deps).get<{ status: string; send_attempts: number }>(
        "select status, send_attempts from payouts where send_id = ?",
        req.sendId,
      );
      seen.push({ resumed: req.resumed, groupOpen, committed });
      const die = script.die;
      script.die = null;
      if (die === "before_psp") throw new Error("the process died before the request left");
      if (!(req.resumed && sent.has(req.sendId))) sent.set(req.sendId, req);
      if (die === "after_psp") throw new Error("the process died before the answer arrived");
      return { status: "processing", endToEndId: "E12345678202611201200abcdefghijk" };
    },
    async sendStatus(_ctx: unknown, req: SendRequest): Promise<SendOutcome> {
      return sent.has(req.sendId) ? { status: "processing" } : { status: "absent" };
    },
  } as unknown as PaymentProvider;
  h.deps.providers = new ProviderRegistry({
    config: h.deps.config,
    clock: h.clock,
    sandbox: createSandboxProvider({ faults: sandboxFaultStore(() => h.deps.store) }),
    live: () => provider,
    byConnection: (id) => (id === CONNECTION ? provider : undefined),
  });
  return { sent, seen, script };
}

async function livePayout() {
  const { h, a } = await setup();
  const p = psp(h);
  await fund(h, a, 10_000, true);
  const r = await payout(h, a.liveKey, { amount: 1_000, destination_id: (await destination(h, a)).id });
  expect(r.status).toBe(201);
  return { h, a, id: r.body.id as string, ...p };
}

describe("a live payout's send intent", () => {
  test("is committed before the PSP hears of the send, also under SQLite's group commit", async () => {
    const { h, id, seen, sent } = await livePayout();
    const sqlite = h.deps.store.kind === "sqlite";
    // As under `serve`: units of one turn share one COMMIT at the end of the turn.
    if (sqlite) enableGroupCommit(dbOf(h.deps).$client);
    try {
      await h.deps.jobs.drain();
    } finally {
      if (sqlite) flushGroupCommit(dbOf(h.deps).$client);
    }
    expect(seen).toEqual([{ resumed: false, groupOpen: false, committed: { status: "processing", send_attempts: 1 } }]);
    expect(sent.size).toBe(1);
    expect(await testDb(h.deps).get("select status, send_attempts from payouts where id = ?", id)).toEqual({
      status: "processing",
      send_attempts: 1,
    });
  });

  test("a run that dies between its committed intent and the PSP is followed by one send, which asks first", async () => {
    const { h, a, id, seen, sent, script } = await livePayout();
    script.die = "before_psp";
    await h.deps.jobs.drain();
    expect(sent.size).toBe(0);
    h.clock.advance(60);
    await h.deps.jobs.drain();
    expect(seen.map((s) => [s.resumed, s.committed])).toEqual([
      [false, { status: "processing", send_attempts: 1 }],
      [true, { status: "processing", send_attempts: 2 }],
    ]);
    expect(sent.size).toBe(1);
    expect((await h.call("GET", `/v1/payouts/${id}`, { key: a.liveKey })).body.status).toBe("processing");
    expect(await available(h, a.liveKey)).toBe(9_000);
  });

  test("a run that dies after the PSP took the send is followed by a resumed call that finds it: still one send", async () => {
    const { h, id, seen, sent, script } = await livePayout();
    script.die = "after_psp";
    await h.deps.jobs.drain();
    expect(sent.size).toBe(1);
    h.clock.advance(60);
    await h.deps.jobs.drain();
    expect(seen.map((s) => s.resumed)).toEqual([false, true]);
    expect(sent.size).toBe(1);
    expect(await testDb(h.deps).get("select status, send_attempts from payouts where id = ?", id)).toEqual({
      status: "processing",
      send_attempts: 2,
    });
  });
});
