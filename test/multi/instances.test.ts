// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * Three `cofre serve` processes on one PostgreSQL database behind HAProxy configured as
 * docs/deploy.md says (issue 17; extensions.md "PostgreSQL and many instances"). Through the
 * balancer: concurrent creates with Idempotency-Keys (some resent, some concurrently so one key
 * reaches two instances), payments, refunds, MED cases, webhooks to a receiver on 127.0.0.1,
 * while one instance is SIGKILLed mid-load and restarted. Then: every acknowledged write is
 * there, no key made two charges, no once-per-object event was stored twice (no job ran on two
 * instances at once), every event reached the receiver, `ledger verify` is clean; and the doc's
 * backup and restore commands, run as written, give a database that verifies. Also: a key revoked
 * through one instance is refused by the others within a second, the test clock advanced on one
 * moves the others by as much, MED evidence stored by one instance is served by another (the
 * shared data folder), and logins are throttled per client address HAProxy forwards. Rate limits: rate-limits.test.ts;
 * the doc's other blocks: deploy-doc.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { blockPath, cofreShim, docBlock } from "./doc";
import { Receiver } from "./receiver";
import { api, OPERATOR_TOKEN, OWNER, startDeployment, type Deployment, type Instance } from "./support";
import { retryDeferred, runLoad, stableFields, type LoadResult } from "./load";
import { PAIR_LIMIT } from "../../src/domain/auth/throttle";

let d: Deployment;
let receiver: Receiver;
let endpointId: string;
let token: string;
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

beforeAll(async () => {
  // Deterministic: the first attempt of about one delivery in eight is refused with 500 (its retry succeeds).
  // 150 ms per answer: at any moment of the load several deliveries are in flight on each
  // instance (their jobs leased), so the kill cuts some.
  receiver = new Receiver((id) => Bun.hash.crc32(id) % 8 === 0, 150);
  // Named `cofre`: the doc's backup block dumps the database of that name.
  d = await startDeployment({ instances: 3, database: "cofre" });
  const settings = await api(d.base, "PATCH", `/v1/operator/accounts/${d.accountId}`, {
    bearer: OPERATOR_TOKEN,
    body: { settlement_delay_seconds: 0 },
  });
  expect(settings.status).toBe(200);
  const login = await api(d.base, "POST", "/v1/auth/login", { body: OWNER });
  expect(login.status).toBe(200);
  token = login.body.access_token;
  const catalog = await api(d.base, "GET", "/v1/webhooks/event-catalog");
  const events = (catalog.body as { event: string }[]).map((e) => e.event);
  const ep = await api(d.base, "POST", "/v1/webhooks/endpoints", {
    key: d.apiKey,
    body: { url: receiver.url, events },
  });
  expect(ep.status).toBe(201);
  endpointId = ep.body.id;
  console.log(
    `multi: deployment up after ${elapsed()} (instances ${d.instances.map((i) => i.port).join(", ")}, balancer ${d.lb.port})`,
  );
}, 120_000);

/** POSTs a login to the balancer over a socket bound to `source`, claiming `X-Forwarded-For: forwardedFor`; resolves with the status. */
function loginFrom(source: string, forwardedFor: string, password: string): Promise<number> {
  const body = JSON.stringify({ email: OWNER.email, password });
  const head = `POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-forwarded-for: ${forwardedFor}\r\nconnection: close\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port: d.lb.port, localAddress: source });
    let answer = "";
    // Written without half-closing: a client FIN before the answer may be taken for an abort on
    // the way through the balancer (one run saw an empty answer). `connection: close` ends it.
    socket.on("connect", () => socket.write(head + body));
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on("error", reject);
  });
}

afterAll(async () => {
  await d?.close();
  receiver?.stop();
});

describe("three instances behind HAProxy on one PostgreSQL database", () => {
  test("a key revoked through one instance is refused by the other two within a second", async () => {
    const issued = await api(d.base, "POST", "/v1/api-keys", {
      bearer: token,
      body: { label: "to revoke", test: true },
    });
    expect(issued.status).toBe(201);
    const [a, ...others] = d.instances;
    // Every instance has the key in its cache.
    for (const i of d.instances)
      expect((await api(i.base, "GET", "/v1/ping", { key: issued.body.apiKey })).status).toBe(200);
    const revoked = await api(a!.base, "DELETE", `/v1/api-keys/${issued.body.id}`, { bearer: token });
    expect(revoked.status).toBe(200);
    const start = performance.now();
    const refusedAfter = await Promise.all(
      others.map(async (i) => {
        for (;;) {
          const r = await api(i.base, "GET", "/v1/ping", { key: issued.body.apiKey });
          if (r.status === 401) return performance.now() - start;
          expect(r.status).toBe(200);
          if (performance.now() - start > 1000) return Infinity;
          await Bun.sleep(10);
        }
      }),
    );
    console.log(
      `multi: revoked key refused by the other instances after ${refusedAfter.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}`,
    );
    for (const ms of refusedAfter) expect(ms).toBeLessThan(1000);
  }, 30_000);

  test("the test clock advanced on one instance moves the other two, and by exactly as much", async () => {
    const [a, ...others] = d.instances;
    // Advances while the instance is busy serving (its own clock notice and the commit of its
    // advance then arrive in one turn of its event loop: the order it handles them must not matter).
    let busy = true;
    const background = Promise.all(
      [1, 2].map(async () => {
        while (busy) expect((await api(a!.base, "GET", "/v1/ping", { key: d.apiKey })).status).toBe(200);
      }),
    );
    let advanced: any;
    try {
      for (const seconds of [3 * 3600, ...Array<number>(12).fill(60)]) {
        const r = await api(a!.base, "POST", "/v1/test_helpers/clock/advance", {
          key: d.apiKey,
          body: { seconds },
          timeoutMs: 60_000,
        });
        expect(r.status).toBe(200);
        advanced = r.body;
      }
    } finally {
      busy = false;
      await background;
    }
    const target = Date.parse(advanced.now);
    const [shared] = await d.database
      .sql`select value::int8::text as ms from shared_state where name = 'test_clock_offset_ms'`;
    // The advancing instance is where the shared offset says (it may lag by what running the due work took, never
    // lead).
    expect(target - Date.now()).toBeLessThanOrEqual(Number(shared.ms) + 1000);
    expect(target - Date.now()).toBeGreaterThan(3 * 3600_000 + 720_000 - 60_000);
    // Each other instance's `now`, read as the created_at of a charge it creates, reaches it within a second.
    for (const [n, i] of others.entries()) {
      let seen = 0;
      const start = performance.now();
      while (performance.now() - start < 1000) {
        const c = await api(i.base, "POST", "/v1/pix/charges", {
          key: d.apiKey,
          body: { amount: 100, description: "clock probe" },
          headers: { "idempotency-key": `clock-probe-${n}-${performance.now()}` },
        });
        expect(c.status).toBe(201);
        seen = Date.parse(c.body.created_at);
        if (seen >= target) break;
        await Bun.sleep(20);
      }
      expect(seen).toBeGreaterThanOrEqual(target);
    }
  }, 60_000);

  test("MED evidence stored through one instance is confirmed by a second and served by the third (shared COFRE_DATA_DIR)", async () => {
    const [a, b, c] = d.instances as [Instance, Instance, Instance];
    const key = { key: d.apiKey };
    const charge = await api(a.base, "POST", "/v1/pix/charges", {
      ...key,
      body: { amount: 4321, description: "evidence" },
      headers: { "idempotency-key": "evidence-charge-1" },
    });
    expect(charge.status).toBe(201);
    expect(
      (await api(a.base, "POST", `/v1/test_helpers/charges/${charge.body.id}/pay`, { ...key, body: {} })).status,
    ).toBe(200);
    const kase = await api(a.base, "POST", `/v1/test_helpers/charges/${charge.body.id}/med`, { ...key, body: {} });
    expect(kase.status).toBe(201);
    const bytes = new Uint8Array(2048);
    const head = new TextEncoder().encode("%PDF-1.4\n");
    for (let i = 0; i < bytes.length; i++) bytes[i] = i < head.length ? head[i]! : (i * 31) % 251;
    const up = await api(a.base, "POST", `/v1/med/cases/${kase.body.id}/evidence`, {
      ...key,
      body: { file_name: "receipt.pdf", mime_type: "application/pdf", file_size: bytes.length },
    });
    expect(up.status).toBe(201);
    // Links name COFRE_PUBLIC_URL, the balancer; each step goes to a chosen instance instead.
    expect(up.body.upload_url.startsWith(`${d.base}/`)).toBe(true);
    const put = await fetch(up.body.upload_url.replace(d.base, a.base), {
      method: "PUT",
      headers: up.body.upload_headers,
      body: bytes,
    });
    expect(put.status).toBe(200);
    expect(
      (await api(b.base, "POST", `/v1/med/cases/${kase.body.id}/evidence/${up.body.id}/complete`, key)).status,
    ).toBe(200);
    const list = await api(c.base, "GET", `/v1/med/cases/${kase.body.id}/evidence`, key);
    expect(list.status).toBe(200);
    const view = await fetch(list.body.data[0].view_url.replace(d.base, c.base));
    expect(view.status).toBe(200);
    expect(new Uint8Array(await view.arrayBuffer())).toEqual(bytes);
  }, 30_000);

  test("logins through the balancer are throttled per client address it forwards, whichever instance each lands on", async () => {
    // HAProxy's `option forwardfor` appends the address it saw; COFRE_TRUSTED_PROXIES names HAProxy
    // (127.0.0.1) only. This client connects from 127.0.0.2 and claims another address each time:
    // the claims are left of HAProxy's hop and ignored, so its failures add up.
    for (let i = 0; i < PAIR_LIMIT; i++)
      expect(await loginFrom("127.0.0.2", `203.0.113.${i + 1}`, `wrong-${i}`)).toBe(401);
    expect(await loginFrom("127.0.0.2", "198.51.100.7", OWNER.password)).toBe(429);
    // Another client of the same balancer is not locked out.
    expect(await loginFrom("127.0.0.3", "198.51.100.7", OWNER.password)).toBe(200);
  }, 30_000);

  let load: LoadResult;

  test("under load through the balancer with one instance SIGKILLed and restarted, nothing acknowledged is lost or done twice", async () => {
    const victim = d.instances[1]!;
    let restart: Promise<void> | null = null;
    let leasedAtKill = -1;
    const total = 90;
    const loadStart = Date.now();
    load = await runLoad({
      base: d.base,
      key: d.apiKey,
      runId: "l1",
      charges: total,
      workers: 6,
      // The last third of the load runs once the killed instance is back.
      beforeCharge: async (i) => {
        if (i >= (total * 2) / 3 && restart) await restart;
      },
      onProgress: (acked) => {
        if (restart || acked < total / 4) return;
        restart = (async () => {
          await victim.kill("SIGKILL");
          const [row] = await d.database.sql`select count(*)::int as n from jobs where lease_until is not null`;
          leasedAtKill = row.n;
          await Bun.sleep(300);
          await victim.start();
        })();
      },
    });
    expect(restart).not.toBeNull();
    await restart;
    expect(victim.starts).toBe(2);
    console.log(
      `multi: load done in ${Date.now() - loadStart} ms (${elapsed()}): ${JSON.stringify(load.counts)}, ${load.charges.size} charges acknowledged, ${load.deferred.length} deferred, ${leasedAtKill} jobs leased when the instance was killed`,
    );
    expect(load.unexpected).toEqual([]);

    // Drain: move the shared clock so retries, refund steps, expiries and dead claims fall due
    // (each retry is a step of the advance: the receiver answers at once from now on).
    receiver.delayMs = 0;
    const drainStart = Date.now();
    let pending = -1;
    for (let round = 0; round < 12; round++) {
      const adv = await api(d.base, "POST", "/v1/test_helpers/clock/advance", {
        key: d.apiKey,
        body: { seconds: round === 0 ? 900 : 300 },
        timeoutMs: 150_000,
      });
      expect(adv.status).toBe(200);
      console.log(`multi: drain advance ${round} answered after ${Date.now() - drainStart} ms`);
      if (round === 0) expect(await retryDeferred(d.base, d.apiKey, load)).toEqual([]);
      const [row] = await d.database
        .sql`select count(*)::int as n from webhook_deliveries where status in ('PENDING', 'PROCESSING')`;
      pending = row.n;
      if (pending === 0 && round > 0) break;
    }
    const [cut] = await d.database
      .sql`select count(*)::int as n from webhook_attempts where outcome = 'interrupted' or error like 'interrupted%'`;
    console.log(
      `multi: drained in ${Date.now() - drainStart} ms (${elapsed()}); receiver: ${receiver.posts} posts, ${receiver.refused} refused on purpose; ${cut.n} attempts cut by the kill`,
    );
    expect(pending).toBe(0);
  }, 150_000);

  test("every acknowledged create answers GET with the same fields, and every acknowledged payment, refund and MED case is there", async () => {
    expect(load.charges.size).toBe(90);
    const deferred = new Set(load.deferred.map((x) => x.key));
    for (const [id, c] of load.charges) {
      const r = await api(d.base, "GET", `/v1/charges/${id}`, { key: d.apiKey });
      expect(r.status).toBe(200);
      expect(stableFields(r.body)).toEqual(stableFields(c.created));
      if (c.paid) expect(["paid", "disputed", "refunded"]).toContain(r.body.status);
      // Unpaid charges expired in the drain (a deferred one, created during it, may still wait).
      else expect(deferred.has(c.key) ? ["expired", "pending"] : ["expired"]).toContain(r.body.status);
      if (c.refunds.size) {
        const list = await api(d.base, "GET", `/v1/payments/${id.replace(/^ch_/, "")}/refunds`, { key: d.apiKey });
        const byId = new Map(
          (list.body.data as { id: string; amount: number; status: string }[]).map((x) => [x.id, x]),
        );
        for (const [rid, amount] of c.refunds) {
          expect(byId.get(rid)?.amount).toBe(amount);
          expect(byId.get(rid)?.status).toBe("REFUNDED");
        }
      }
      if (c.med?.id) {
        const m = await api(d.base, "GET", `/v1/med/cases/${c.med.id}`, { key: d.apiKey });
        expect(m.status).toBe(200);
        if (c.med.status !== "unknown") expect(m.body.status).toBe(c.med.status);
      }
    }
  }, 60_000);

  test("no Idempotency-Key made two charges, though a share was resent and some reached two instances at once", async () => {
    expect(load.counts.concurrentSends).toBeGreaterThan(10);
    expect(load.counts.replays).toBeGreaterThan(10);
    for (const [key, ids] of load.idsByKey) expect({ key, ids: [...ids].length }).toEqual({ key, ids: 1 });
    const dup = await d.database.sql`select metadata::jsonb->>'description' as key, count(*)::int as n from transactions
      where metadata::jsonb->>'description' like 'multi-%' group by 1 having count(*) > 1`;
    expect(dup).toEqual([]);
    const [row] = await d.database
      .sql`select count(*)::int as n from transactions where metadata::jsonb->>'description' like 'multi-%'`;
    expect(row.n).toBe(load.charges.size);
  }, 30_000);

  test("no job ran on two instances at once: no once-per-object event stored twice, no delivery attempt run twice", async () => {
    const dup = await d.database.sql`select type, obj, count(*)::int as n from (
        select type, case
          when type in ('charge.refunded') then body::jsonb #>> '{data,refund,id}'
          when type in ('payment.refunded') then body::jsonb #>> '{data,refundId}'
          when type = 'med_case.created' then body::jsonb #>> '{data,object,id}'
          when type = 'med.resolved' then body::jsonb #>> '{data,object,med_case_id}'
          else transaction_id end as obj
        from events
        where type in ('charge.created', 'payment.created', 'charge.paid', 'payment.completed', 'charge.expired', 'payment.expired',
                       'charge.refunded', 'payment.refunded', 'med_case.created', 'med.resolved')) e
      group by 1, 2 having count(*) > 1`;
    expect(dup).toEqual([]);
    // The jobs did run: each expiry, refund step and MED ruling produced its event once.
    const counts = await d.database.sql`select type, count(*)::int as n from events group by 1 order by 1`;
    const n = Object.fromEntries(counts.map((r: { type: string; n: number }) => [r.type, r.n]));
    const acked = [...load.charges.values()];
    const deferred = new Set(load.deferred.map((x) => x.key));
    expect(n["charge.expired"]).toBeGreaterThanOrEqual(acked.filter((c) => !c.paid && !deferred.has(c.key)).length);
    expect(n["charge.refunded"]).toBe(acked.reduce((s, c) => s + c.refunds.size, 0));
    const twice = await d.database
      .sql`select delivery_id, attempt, count(*)::int as n from webhook_attempts group by 1, 2 having count(*) > 1`;
    expect(twice).toEqual([]);
    const overlapping = await d.database.sql`select a.delivery_id from webhook_attempts a join webhook_attempts b
      on a.delivery_id = b.delivery_id and a.id < b.id
      where a.outcome is distinct from 'interrupted' and b.outcome is distinct from 'interrupted'
        and a.finished_at is not null and b.finished_at is not null and a.started_at < b.finished_at and b.started_at < a.finished_at`;
    expect(overlapping).toEqual([]);
  }, 30_000);

  test("every stored event reached the receiver at least once", async () => {
    const missingDelivery = await d.database.sql`select e.id, e.type from events e
      where not exists (select 1 from webhook_deliveries w where w.event_id = e.id and w.endpoint_id = ${endpointId})`;
    expect(missingDelivery).toEqual([]);
    const rows = await d.database
      .sql`select id, event_id, status from webhook_deliveries where endpoint_id = ${endpointId}`;
    expect(rows.length).toBeGreaterThan(300);
    const notReceived = rows.filter(
      (r: { id: string; event_id: string }) => !receiver.delivered.has(r.id) && !receiver.events.has(r.event_id),
    );
    expect(notReceived).toEqual([]);
    expect(receiver.refused).toBeGreaterThan(0);
  }, 30_000);

  test("cofre ledger verify exits 0 with ok: true", async () => {
    const v = await d.cli(["ledger", "verify"]);
    expect({ code: v.code, stderr: v.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(v.stdout).ok).toBe(true);
  }, 30_000);

  test("the backup and restore commands of docs/deploy.md, run as written, give a database that verifies and holds the same charges", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cofre-backup-"));
    const restored = "cofre_restored";
    await d.database.sql.unsafe(`drop database if exists ${restored} with (force)`).catch(() => {});
    try {
      cofreShim(dir);
      const server = `127.0.0.1:${d.database.port}`;
      const env = { PATH: blockPath(dir), HOME: process.env.HOME ?? "" };
      for (const name of ["backup", "restore"]) {
        const block = docBlock(name);
        expect(block).toContain("db.internal:5432");
        const r = Bun.spawnSync(["sh", "-e", "-c", block.replaceAll("db.internal:5432", server)], {
          cwd: dir,
          env,
          stdout: "pipe",
          stderr: "pipe",
        });
        expect({ block: name, code: r.exitCode, stderr: r.stderr.toString() }).toEqual({
          block: name,
          code: 0,
          stderr: "",
        });
        if (name === "restore") expect(JSON.parse(r.stdout.toString().trim().split("\n").pop()!).ok).toBe(true);
      }
      const copy = new Bun.SQL({ url: d.database.url.replace(/\/cofre$/, `/${restored}`), max: 1 });
      try {
        const [a] = await d.database
          .sql`select count(*)::int as n, coalesce(sum(amount), 0)::int8::text as s from transactions`;
        const [b] = await copy`select count(*)::int as n, coalesce(sum(amount), 0)::int8::text as s from transactions`;
        expect(b).toEqual(a);
      } finally {
        await copy.close();
      }
    } finally {
      await d.database.sql.unsafe(`drop database if exists ${restored} with (force)`).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
