/** The expiry sweep (src/domain/charges/expiry.ts): one durable job expires every waiting Pix charge on time. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Deps } from "../../src/deps";
import { createTransaction } from "../../src/domain/charges/create";
import { CHARGE_EXPIRE_DUE_JOB, SWEEP_BATCH } from "../../src/domain/charges/expiry";
import { ManualClock } from "../../src/lib/clock";
import { newId } from "../../src/lib/ids";
import type { Harness, SeededAccount } from "../support/harness";
import { awaitsExpiry, eventTypes, harness, newCharge, raw, startupSettled } from "./support";
import { testDeps } from "../support/backend";
import { testDb } from "../support/test-db";

const START = "2026-11-20T12:00:00.000Z";
const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000).toISOString();
const pay = (h: Harness, key: string, id: string) =>
  h.call("POST", `/v1/test_helpers/charges/${id}/pay`, { key, body: {} });
const status = async (h: Harness, a: SeededAccount, id: string) =>
  (await h.call("GET", `/v1/charges/${id}`, { key: a.testKey })).body.status as string;

interface JobLine {
  kind: string;
  due_at: number;
  lease_until: number | null;
}
/** Every job row of the charge expiry kinds (sweep and legacy). */
function expiryJobs(d: Deps): Promise<JobLine[]> {
  return testDb(d).all<JobLine>(
    "select kind, due_at, lease_until from jobs where kind like 'charge.expire%' order by kind",
  );
}
const sweepDueAt = async (d: Deps) => (await expiryJobs(d)).find((j) => j.kind === CHARGE_EXPIRE_DUE_JOB)?.due_at;

describe("each charge expires at its own pix.expires_at", () => {
  test("charges with different windows expire each at its own second and not one second before", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const ttls = [300, 60, 180, 120, 60, 240, 3600];
    const charges = [];
    for (const ttl of ttls) charges.push({ ttl, id: (await newCharge(h, a, { expires_in: ttl })).id as string });
    let elapsed = 0;
    for (const ttl of [...new Set(ttls)].sort((x, y) => x - y)) {
      h.clock.advance(ttl - 1 - elapsed);
      await h.deps.jobs.drain();
      for (const c of charges)
        expect([c.ttl, await status(h, a, c.id)]).toEqual([c.ttl, c.ttl < ttl ? "expired" : "pending"]);
      h.clock.advance(1);
      elapsed = ttl;
      await h.deps.jobs.drain();
      for (const c of charges)
        expect([c.ttl, await status(h, a, c.id)]).toEqual([c.ttl, c.ttl <= ttl ? "expired" : "pending"]);
    }
    for (const c of charges) {
      const g = await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey });
      expect(g.body.metadata.failure).toEqual({
        reason: "expired",
        providerErrorCode: null,
        ttlSeconds: c.ttl,
        at: at(c.ttl),
      });
      expect((await eventTypes(h, raw(c.id))).filter((t) => t === "charge.expired")).toHaveLength(1);
    }
    // nothing waits any more: the sweep removed its row
    expect(await expiryJobs(h.deps)).toEqual([]);
  });

  test("a paid charge is never expired, while an unpaid one of the same window is", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const paid = await newCharge(h, a, { amount: 700, expires_in: 60 });
    const unpaid = await newCharge(h, a, { amount: 700, expires_in: 60 });
    expect((await pay(h, a.testKey, paid.id)).body.status).toBe("paid");
    h.clock.advance(60);
    await h.deps.jobs.drain();
    expect(await status(h, a, paid.id)).toBe("paid");
    expect(await status(h, a, unpaid.id)).toBe("expired");
    expect(await eventTypes(h, raw(paid.id))).toEqual([
      "charge.created",
      "payment.created",
      "charge.paid",
      "payment.completed",
    ]);
    h.clock.advance(86400);
    await h.deps.jobs.drain();
    expect(await status(h, a, paid.id)).toBe("paid");
  });

  test("more waiting charges than one batch all expire at their time", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const n = SWEEP_BATCH * 3 + 5;
    const d = h.deps;
    // Rows straight into the table (n API calls would be slow): waiting Pix charges due in 60 s.
    const first = (await newCharge(h, a, { expires_in: 60 })).id as string;
    // Copies of the first row with new ids (and no txid): `(values ...)` names its column column1 on both databases.
    const db = testDb(d);
    const cols = Object.keys((await db.get("select * from transactions where id = ?", raw(first)))!).filter(
      (c) => c !== "id" && c !== "pix_txid",
    );
    const ids = Array.from({ length: n - 1 }, (_, i) => `${raw(first).slice(0, 24)}${String(i + 1).padStart(8, "0")}`);
    await db.run(
      `insert into transactions (id, pix_txid, ${cols.join(", ")}) select v.column1, null, ${cols.map((c) => `t.${c}`).join(", ")} from transactions t, (values ${ids.map(() => "(?)").join(", ")}) v where t.id = ?`,
      ...ids,
      raw(first),
    );
    const count = async (status: string) =>
      (await db.get<{ n: number }>("select count(*) as n from transactions where status = ?", status))!.n;
    expect(await count("WAITING_PAYMENT")).toBe(n);
    h.clock.advance(59);
    await d.jobs.drain();
    expect(await count("WAITING_PAYMENT")).toBe(n);
    h.clock.advance(1);
    await d.jobs.drain();
    expect(await count("WAITING_PAYMENT")).toBe(0);
    expect(await count("EXPIRED")).toBe(n);
  });
});

describe("one sweep job for every charge", () => {
  test("exactly one sweep job row exists however many charges are created, due at the earliest expiry", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const ttls = [900, 600, 3600, 120, 86400, 120, 300, 60, 7200, 60, 1800, 240];
    for (const ttl of ttls) await newCharge(h, a, { expires_in: ttl });
    expect(await expiryJobs(h.deps)).toEqual([
      { kind: CHARGE_EXPIRE_DUE_JOB, due_at: Date.parse(at(60)), lease_until: null },
    ]);
    expect(await h.deps.jobs.pending(CHARGE_EXPIRE_DUE_JOB)).toBe(1);
    // after the first expiries the same row is due at the next waiting expires_at
    h.clock.advance(60);
    await h.deps.jobs.drain();
    expect(await expiryJobs(h.deps)).toEqual([
      { kind: CHARGE_EXPIRE_DUE_JOB, due_at: Date.parse(at(120)), lease_until: null },
    ]);
  });

  test("a charge with a shorter window than the waiting ones pulls the sweep earlier", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const long = await newCharge(h, a, { expires_in: 3600 });
    expect(await sweepDueAt(h.deps)).toBe(Date.parse(at(3600)));
    h.clock.advance(10);
    const short = await newCharge(h, a, { expires_in: 60 });
    expect(await sweepDueAt(h.deps)).toBe(Date.parse(at(70)));
    // a later one never pushes it back
    await newCharge(h, a, { expires_in: 600 });
    expect(await sweepDueAt(h.deps)).toBe(Date.parse(at(70)));
    h.clock.advance(59);
    await h.deps.jobs.drain();
    expect(await status(h, a, short.id)).toBe("pending");
    h.clock.advance(1);
    await h.deps.jobs.drain();
    expect(await status(h, a, short.id)).toBe("expired");
    expect(await status(h, a, long.id)).toBe("pending");
    expect(await sweepDueAt(h.deps)).toBe(Date.parse(at(610)));
  });

  test("a charge created while the sweep runs, expiring before the sweep's next run, still expires on time", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const first = await newCharge(h, a, { expires_in: 60 });
    const late = await newCharge(h, a, { expires_in: 3600 });
    // Wrap the sweep: after it computed its next run (late's expiry) and before the scheduler
    // records it, a request creates a charge expiring in 120 s.
    const reg = (
      h.deps.jobs as unknown as { handlers: Map<string, { handler: (job: unknown) => unknown }> }
    ).handlers.get(CHARGE_EXPIRE_DUE_JOB)!;
    const original = reg.handler;
    let raced: { id: string } | null = null;
    let leasedDuringRace: number | null = null;
    reg.handler = async (job) => {
      const outcome = original(job);
      if (!raced) {
        leasedDuringRace = (await expiryJobs(h.deps))[0]!.lease_until;
        raced = await newCharge(h, a, { expires_in: 120 });
      }
      return outcome;
    };
    h.clock.advance(60);
    await h.deps.jobs.drain();
    expect(await status(h, a, first.id)).toBe("expired");
    expect(raced).not.toBeNull();
    expect(leasedDuringRace).not.toBeNull(); // the charge was created while the sweep row was leased
    expect(await sweepDueAt(h.deps)).toBe(Date.parse(at(180)));
    expect(await expiryJobs(h.deps)).toHaveLength(1);
    h.clock.advance(119);
    await h.deps.jobs.drain();
    expect(await status(h, a, raced!.id)).toBe("pending");
    h.clock.advance(1);
    await h.deps.jobs.drain();
    expect(await status(h, a, raced!.id)).toBe("expired");
    expect((await h.call("GET", `/v1/charges/${raced!.id}`, { key: a.testKey })).body.metadata.failure.at).toBe(
      at(180),
    );
    expect(await status(h, a, late.id)).toBe("pending");
    expect(await sweepDueAt(h.deps)).toBe(Date.parse(at(3600)));
  });

  test("a charge created while the last sweep runs (which would delete the job) keeps the job", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const only = await newCharge(h, a, { expires_in: 60 });
    const reg = (
      h.deps.jobs as unknown as { handlers: Map<string, { handler: (job: unknown) => unknown }> }
    ).handlers.get(CHARGE_EXPIRE_DUE_JOB)!;
    const original = reg.handler;
    let raced: { id: string } | null = null;
    reg.handler = async (job) => {
      const outcome = original(job);
      if (!raced) raced = await newCharge(h, a, { expires_in: 300 });
      return outcome;
    };
    h.clock.advance(60);
    await h.deps.jobs.drain();
    expect(await status(h, a, only.id)).toBe("expired");
    expect(await sweepDueAt(h.deps)).toBe(Date.parse(at(360)));
    h.clock.advance(300);
    await h.deps.jobs.drain();
    expect(await status(h, a, raced!.id)).toBe("expired");
    expect(await expiryJobs(h.deps)).toEqual([]);
  });

  test("a charge that cannot be expired is logged and retried without holding back the others", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const bad = await newCharge(h, a, { expires_in: 60 });
    const good = await newCharge(h, a, { expires_in: 60 });
    const later = await newCharge(h, a, { expires_in: 61 });
    // A trigger makes expiring `bad` fail (a poison row).
    const db = testDb(h.deps);
    await db.exec(
      db.kind === "sqlite"
        ? `create trigger poison before update of status on transactions when old.id = '${raw(bad.id)}' and new.status = 'EXPIRED' begin select raise(abort, 'poison'); end`
        : `create function poison() returns trigger language plpgsql as $$ begin raise exception 'poison'; end $$;
           create trigger poison before update of status on transactions for each row when (old.id = '${raw(bad.id)}' and new.status = 'EXPIRED') execute function poison()`,
    );
    h.clock.advance(60);
    await h.deps.jobs.drain();
    expect(await status(h, a, bad.id)).toBe("pending");
    expect(await status(h, a, good.id)).toBe("expired");
    expect(await sweepDueAt(h.deps)).toBe(Date.parse(at(61)));
    h.clock.advance(1);
    await h.deps.jobs.drain();
    expect(await status(h, a, later.id)).toBe("expired");
    expect(await sweepDueAt(h.deps)).toBe(Date.parse(at(66))); // the failed one, 5 s after it failed
    await db.exec(
      db.kind === "sqlite" ? "drop trigger poison" : "drop trigger poison on transactions; drop function poison()",
    );
    h.clock.advance(5);
    await h.deps.jobs.drain();
    expect(await status(h, a, bad.id)).toBe("expired");
    expect(await expiryJobs(h.deps)).toEqual([]);
  });
});

describe("databases from before the sweep", () => {
  const dir = mkdtempSync(join(tmpdir(), "cofre-expiry-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A file database with one account and Pix charges of the given windows (seconds), created at START. */
  async function oldDatabase(name: string, ttls: number[]) {
    const dataDir = join(dir, name);
    const d = testDeps({ dataDir, clock: new ManualClock(START), config: { logLevel: "silent" } });
    await d.startup;
    const accountId = newId("account");
    await d.store.tx((uow) => uow.accounts.insert({ id: accountId, name: "Loja Antiga", createdAt: d.clock.nowMs() }));
    const ids: string[] = [];
    for (const ttl of ttls) {
      const row = await createTransaction(
        d,
        { accountId, livemode: false },
        {
          origin: "charges",
          methods: ["PIX"],
          amount: 1000,
          currency: "BRL",
          expiresIn: ttl,
          webhookUrl: "https://merchant.example.com/hook", // so the outbox keeps its legacy events
        },
      );
      ids.push(row.id);
    }
    return { d, dataDir, ids };
  }
  const statusOf = async (d: Deps, id: string) =>
    (await testDb(d).get<{ status: string }>("select status from transactions where id = ?", id))!.status;
  const statuses = (d: Deps, ids: string[]) => Promise.all(ids.map((id) => statusOf(d, id)));

  test("an old-style charge.expire job still expires its charge, once, and leaves no row behind", async () => {
    const { d: d1, dataDir, ids } = await oldDatabase("legacy", [60, 120]);
    // What a database written before the sweep holds: one charge.expire job per charge, no sweep.
    await testDb(d1).run("delete from jobs where kind = ?", CHARGE_EXPIRE_DUE_JOB);
    for (const [i, id] of ids.entries())
      await d1.store.tx((uow) =>
        d1.jobs.enqueue(uow, {
          kind: "charge.expire",
          dedupeKey: `charge.expire:${id}`,
          payload: { transactionId: id },
          dueAt: Date.parse(START) + [60, 120][i] * 1000,
        }),
      );
    await d1.store.close();

    const clock = new ManualClock(START);
    const d2 = testDeps({ dataDir, clock, config: { logLevel: "silent" } });
    await startupSettled(d2);
    // registration scheduled the sweep at the earliest waiting expiry
    expect((await expiryJobs(d2)).map((j) => [j.kind, j.due_at])).toEqual([
      ["charge.expire", Date.parse(at(60))],
      ["charge.expire", Date.parse(at(120))],
      [CHARGE_EXPIRE_DUE_JOB, Date.parse(at(60))],
    ]);
    clock.advance(59);
    await d2.jobs.drain();
    expect(await statuses(d2, ids)).toEqual(["WAITING_PAYMENT", "WAITING_PAYMENT"]);
    clock.advance(1);
    await d2.jobs.drain();
    expect(await statuses(d2, ids)).toEqual(["EXPIRED", "WAITING_PAYMENT"]);
    clock.advance(60);
    await d2.jobs.drain();
    expect(await statuses(d2, ids)).toEqual(["EXPIRED", "EXPIRED"]);
    // expired once each, though both the legacy job and the sweep ran for it
    const expired = await testDb(d2).all<{ id: string; n: number }>(
      "select transaction_id as id, count(*) as n from events where type = 'payment.expired' group by transaction_id order by n",
    );
    expect(expired).toHaveLength(2);
    expect(expired.map((e) => e.n)).toEqual([1, 1]);
    expect(await expiryJobs(d2)).toEqual([]);
    await d2.store.close();
  });

  test("waiting charges with no expiry job at all are swept after a restart, late ones at once", async () => {
    const { d: d1, dataDir, ids } = await oldDatabase("nojobs", [60, 600]);
    await testDb(d1).run("delete from jobs");
    await d1.store.close();

    const clock = new ManualClock(at(300)); // the process was down past the first expiry
    const d2 = testDeps({ dataDir, clock, config: { logLevel: "silent" } });
    await startupSettled(d2);
    expect(await sweepDueAt(d2)).toBe(Date.parse(at(60)));
    await d2.jobs.drain();
    expect(await statuses(d2, ids)).toEqual(["EXPIRED", "WAITING_PAYMENT"]);
    expect(await sweepDueAt(d2)).toBe(Date.parse(at(600)));
    clock.advance(300);
    await d2.jobs.drain();
    expect(await statuses(d2, ids)).toEqual(["EXPIRED", "EXPIRED"]);
    await d2.store.close();
  });
});

test("awaitsExpiry reflects the partial index: waiting charges in, paid ones out", async () => {
  const h = harness();
  const a = await h.seedAccount();
  const c = await newCharge(h, a, { expires_in: 60 });
  expect(await awaitsExpiry(h, raw(c.id))).toBe(true);
  await pay(h, a.testKey, c.id);
  expect(await awaitsExpiry(h, raw(c.id))).toBe(false);
});
