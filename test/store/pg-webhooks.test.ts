// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * The PostgreSQL webhooks repository (src/store/pg/webhooks.ts, webhooks-deliveries.ts): the same
 * results as the SQLite twin (endpoints, deliveries, the listing and its total, the worker's
 * claim, attempts, secrets), and the claim's row lock that keeps two workers from starting the
 * same attempt.
 */
import { describe, expect, test } from "bun:test";
import type { PgStore } from "../../src/store/pg";
import type { Store } from "../../src/store/port";
import type { AttemptOutcome } from "../../src/store/port/webhooks";
import type { NewWebhookDeliveryRow, WebhookEndpointRow } from "../../src/store/rows";

import { deferred, fileStores, type PgDatabase, raw, settlesWithin, sqliteStore } from "./pg-twins";

let db: PgDatabase;
let pg: PgStore;
let other: PgStore;
fileStores([4, 2], (d, [a, b]) => ([db, pg, other] = [d, a!, b!]));

let seq = 0;

function endpoint(
  p: string,
  id: string,
  createdAt: number,
  over: Partial<WebhookEndpointRow> = {},
): WebhookEndpointRow {
  return {
    id: `${p}${id}`,
    accountId: `${p}acct`,
    livemode: false,
    url: `https://h/${id}`,
    events: '["charge.paid"]',
    status: "ACTIVE",
    secret: `sec_${id}`,
    createdAt,
    updatedAt: createdAt,
    ...over,
  };
}

function delivery(
  p: string,
  id: string,
  eventId: string,
  createdAt: number,
  over: Partial<NewWebhookDeliveryRow> = {},
): NewWebhookDeliveryRow {
  return {
    id: `${p}${id}`,
    accountId: `${p}acct`,
    livemode: false,
    endpointId: `${p}ep1`,
    eventId: `${p}${eventId}`,
    eventType: "charge.paid",
    family: "canonical",
    status: "PENDING",
    maxAttempts: 5,
    createdAt,
    updatedAt: createdAt,
    ...over,
  };
}

async function insertEvent(store: Store, p: string, id: string, tx: string | null): Promise<void> {
  await raw(store).run(
    "insert into events (id, account_id, livemode, type, family, body, transaction_id, created_at) values (?, ?, false, 'charge.paid', 'canonical', ?, ?, 1)",
    `${p}${id}`,
    `${p}acct`,
    `{"id":"${id}"}`,
    tx,
  );
}

function outcome(p: string, d: string, a: string): AttemptOutcome {
  return {
    deliveryId: `${p}${d}`,
    attemptId: `${p}${a}`,
    status: "PENDING",
    attemptStatus: "failed",
    outcome: "http_error",
    statusCode: 500,
    error: "HTTP 500",
    responseBody: "no",
    durationMs: 12,
    nextRetryAt: 9_000,
    deliveredAt: null,
    now: 600,
  };
}

/** What one script of webhooks calls returns on `store`. */
async function webhooksScript(store: Store, p: string) {
  const out: Record<string, unknown> = {};
  const scope = { accountId: `${p}acct`, livemode: false };
  await store.tx(async (u) => {
    await u.webhooks.insertEndpoint(endpoint(p, "ep1", 100));
    await u.webhooks.insertEndpoint(endpoint(p, "ep2", 200, { events: '["charge.paid","charge.expired"]' }));
    await u.webhooks.insertEndpoint(endpoint(p, "ep3", 200, { status: "DISABLED" }));
    await u.webhooks.insertEndpoint(endpoint(p, "ep4", 300, { livemode: true }));
  });
  await store.tx((u) => u.webhooks.updateEndpoint(`${p}ep2`, { url: "https://h/changed", updatedAt: 250 }));
  const w = store.read.webhooks;
  out.endpoints = await w.listEndpoints(scope);
  out.found = await w.findEndpoint(scope, `${p}ep2`);
  out.foundOther = await w.findEndpoint({ ...scope, livemode: true }, `${p}ep2`);
  out.byId = await w.endpointById(`${p}ep4`);
  out.active = await w.activeEndpoints(`${p}acct`, false);

  await insertEvent(store, p, "ev1", "tx1");
  await insertEvent(store, p, "ev2", null);
  await store.tx((u) =>
    u.webhooks.insertDeliveries([
      delivery(p, "d1", "ev1", 400),
      delivery(p, "d2", "ev1", 400, {
        endpointId: null,
        targetUrl: "https://legacy",
        family: "legacy",
        eventType: "payment.paid",
      }),
      delivery(p, "d3", "ev2", 500, { endpointId: `${p}ep2` }),
      delivery(p, "d4", "gone", 500), // its event is gone: counted, never listed
      delivery(p, "d5", "ev2", 450, { endpointId: `${p}ep3` }),
    ]),
  );
  await store.tx((u) => u.webhooks.insertDeliveries([]));
  await store.tx((u) => u.webhooks.updateDelivery(`${p}d5`, { status: "CANCELLED", lastError: "x", updatedAt: 460 }));
  out.delivery = await w.deliveryById(`${p}d2`);
  out.ofEndpoint = await w.deliveryIdsOfEndpoint(`${p}ep1`, ["PENDING", "PROCESSING"]);
  out.page = await w.pageDeliveries(scope, {}, 10, 0);
  out.page2 = await w.pageDeliveries(scope, {}, 2, 1);
  out.pageFar = await w.pageDeliveries(scope, {}, 2, 50);
  out.pageInUnit = await store.tx((u) => u.webhooks.pageDeliveries(scope, { status: "PENDING" }, 3, 0));
  out.filtered = await w.pageDeliveries(
    scope,
    { status: "PENDING", eventType: "charge.paid", endpointId: `${p}ep1` },
    10,
    0,
  );
  out.ofTransaction = await w.pageDeliveries(scope, { transactionId: "tx1" }, 10, 0);
  out.counts = await w.countByStatus(scope);
  out.countsNone = await w.countByStatus({ ...scope, livemode: true });

  out.peek = await w.peekDelivery(`${p}d3`);
  out.peekNone = await w.peekDelivery(`${p}nope`);
  out.claim = await store.tx((u) => u.webhooks.claimView(`${p}d1`));
  out.claimLegacy = await w.claimView(`${p}d2`);
  out.claimNone = await w.claimView(`${p}nope`);
  await store.tx((u) =>
    u.webhooks.startAttempt({ deliveryId: `${p}d1`, attemptId: `${p}a1`, attempt: 1, trigger: "scheduled", now: 500 }),
  );
  out.started = await w.deliveryById(`${p}d1`);
  out.finished = await store.tx((u) => u.webhooks.finishAttempt(outcome(p, "d1", "a1")));
  await store.tx((u) =>
    u.webhooks.startAttempt({ deliveryId: `${p}d1`, attemptId: `${p}a2`, attempt: 2, trigger: "manual", now: 700 }),
  );
  await store.tx((u) =>
    u.webhooks.startAttempt({ deliveryId: `${p}d3`, attemptId: `${p}a3`, attempt: 1, trigger: "scheduled", now: 700 }),
  );
  await store.tx((u) =>
    u.webhooks.updateDeliveries([`${p}d1`, `${p}d3`], { status: "CANCELLED", nextRetryAt: null, updatedAt: 750 }),
  );
  await store.tx((u) => u.webhooks.updateDeliveries([], { status: "FAILED" }));
  out.finishedLate = await store.tx((u) =>
    u.webhooks.finishAttempt({
      ...outcome(p, "d1", "a2"),
      status: "DELIVERED",
      attemptStatus: "succeeded",
      outcome: "delivered",
      statusCode: 200,
      error: null,
      deliveredAt: 800,
      now: 800,
    }),
  );
  await store.tx((u) => u.webhooks.failOpenAttempts(`${p}d3`, 900, "interrupted: x"));
  out.attempts1 = await w.attemptsOf(`${p}d1`);
  out.attempts3 = await w.attemptsOf(`${p}d3`);
  out.after = [await w.deliveryById(`${p}d1`), await w.deliveryById(`${p}d3`)];
  await store.tx((u) => u.webhooks.deleteEndpoint(`${p}ep1`));
  out.claimDeleted = await w.claimView(`${p}d1`);
  out.endpointsAfter = (await w.listEndpoints(scope)).map((e) => e.id);

  out.noSecret = await w.transactionSecret(scope);
  await store.tx((u) => u.webhooks.putTransactionSecret(scope, "s1", 10));
  await store.tx((u) => u.webhooks.putTransactionSecret(scope, "s2", 20));
  out.secret = await w.transactionSecret(scope);
  out.secretRow = await raw(store).all("select * from webhook_transaction_secrets where account_id = ?", `${p}acct`);
  return out;
}

describe("the PostgreSQL webhooks repository", () => {
  test("answers every method as the SQLite twin does", async () => {
    const p = `w${++seq}_`;
    const want = await webhooksScript(sqliteStore(), p);
    expect(want.finished).toBe(true);
    expect(want.finishedLate).toBe(false);
    expect((want.page as { total: number }).total).toBe(5);
    expect(await webhooksScript(pg, p)).toEqual(want);
  });

  test("a claim in a unit locks the delivery: a second worker sees the first one's attempt", async () => {
    const p = `w${++seq}_`;
    await pg.tx(async (u) => {
      await u.webhooks.insertEndpoint(endpoint(p, "ep1", 1));
      await u.webhooks.insertDeliveries([delivery(p, "d1", "ev1", 1)]);
    });
    await insertEvent(pg, p, "ev1", null);
    const hold = deferred();
    const claimed = deferred();
    const first = pg.tx(async (u) => {
      const v = (await u.webhooks.claimView(`${p}d1`))!;
      claimed.resolve();
      await hold.promise;
      await u.webhooks.startAttempt({
        deliveryId: v.d.id,
        attemptId: `${p}a1`,
        attempt: v.d.attempts + 1,
        trigger: "scheduled",
        now: 2,
      });
    });
    await claimed.promise;
    const second = other.tx(async (u) => (await u.webhooks.claimView(`${p}d1`))!.d);
    expect(await settlesWithin(second, 300)).toBe(false);
    expect((await other.read.webhooks.claimView(`${p}d1`))!.d.status).toBe("PENDING"); // the read side never waits
    hold.resolve();
    await first;
    const seen = await second;
    expect([seen.status, seen.attempts]).toEqual(["PROCESSING", 1]);
  });
});

test("the transaction filter reads the transaction's events (events_tx_idx), then their deliveries (wd_event_idx)", async () => {
  const p = `w${++seq}_`;
  const sql = pg.sql;
  await sql`insert into events (id, account_id, livemode, type, family, body, transaction_id, created_at)
    select ${p} || 'ev' || g, ${p} || 'acct', false, 'charge.paid', 'canonical', '{}', ${p} || 'tx' || (g / 2), g from generate_series(1, 20000) g`;
  await sql`insert into webhook_deliveries (id, account_id, livemode, endpoint_id, event_id, event_type, family, status, attempts, max_attempts, created_at, updated_at)
    select ${p} || 'd' || g, ${p} || 'acct', false, 'ep', ${p} || 'ev' || g, 'charge.paid', 'canonical', 'DELIVERED', 1, 5, g, g from generate_series(1, 20000) g`;
  await sql`analyze events, webhook_deliveries`;
  const page = await pg.read.webhooks.pageDeliveries(
    { accountId: `${p}acct`, livemode: false },
    { transactionId: `${p}tx77` },
    20,
    0,
  );
  expect([page.rows.map((r) => r.d.id), page.total]).toEqual([[`${p}d155`, `${p}d154`], 2]);
  // The listing's statement, as the repository builds it (webhooks-deliveries.ts pageDeliveries).
  const plan = (
    (await sql.unsafe(
      `explain select d.*, e.body as event_body from webhook_deliveries d join events e on e.id = d.event_id
      where d.account_id = $1 and d.livemode = false and d.event_id in (select id from events where transaction_id = $2)
      order by d.created_at desc, d.id desc limit 20 offset 0`,
      [`${p}acct`, `${p}tx77`],
    )) as Record<string, string>[]
  )
    .map((r) => r["QUERY PLAN"])
    .join("\n");
  expect(plan).toContain("events_tx_idx");
  expect(plan).toContain("wd_event_idx");
  expect(plan).not.toContain("Seq Scan on webhook_deliveries");
});
