// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * The PostgreSQL med repository (src/store/pg/med.ts): the same results as the SQLite twin
 * (rows as stored, listing order and cursor, the charge's metadata text), first-writer-wins
 * secrets, and the locks that keep one active case per transaction and one ending per case.
 */
import { describe, expect, test } from "bun:test";
import type { PgStore } from "../../src/store/pg";
import type { Store } from "../../src/store/port";
import type { NewMedCaseRow } from "../../src/store/rows";

import { deferred, fileStores, type PgDatabase, raw, settlesWithin, sqliteStore } from "./pg-twins";

let db: PgDatabase;
let pg: PgStore;
let other: PgStore;
fileStores([4, 2], (d, [a, b]) => ([db, pg, other] = [d, a!, b!]));

const FINAL = ["accepted", "rejected", "closed"];
let seq = 0;

async function insertTransaction(store: Store, id: string, metadata: string): Promise<void> {
  await raw(store).run(
    "insert into transactions (id, account_id, livemode, amount, currency, status, payment_methods, origin, metadata, created_at, updated_at) values (?, 'acct_m', false, 1000, 'BRL', 'PAID', '[\"pix\"]', 'api', ?, 1, 1)",
    id,
    metadata,
  );
}

function medCase(id: string, tx: string, createdAt: number, over: Partial<NewMedCaseRow> = {}): NewMedCaseRow {
  return {
    id,
    accountId: "acct_m",
    livemode: false,
    transactionId: tx,
    type: "med",
    status: "open",
    amount: 1000,
    currency: "BRL",
    chargeStatusBefore: "PAID",
    openedAt: createdAt,
    createdAt,
    updatedAt: createdAt,
    ...over,
  };
}

/** What one script of med calls returns on `store`. */
async function medScript(store: Store, p: string) {
  const out: Record<string, unknown> = {};
  await insertTransaction(store, `${p}tx1`, '{"order":"A-1","z":{"deep":[1,2]},"med":{"old":true},"a":"last"}');
  await insertTransaction(store, `${p}tx2`, "not json");
  const scope = { accountId: "acct_m", livemode: false };
  out.inserted = await store.tx((u) =>
    u.med.insertCase(medCase(`${p}c1`, `${p}tx1`, 100, { externalId: `${p}ext`, heldAmount: 500, reason: "fraud" })),
  );
  await store.tx(async (u) => {
    await u.med.insertCase(medCase(`${p}c2`, `${p}tx2`, 100));
    await u.med.insertCase(medCase(`${p}c3`, `${p}tx2`, 200, { status: "closed", type: "other" }));
    await u.med.insertCase(medCase(`${p}c4`, `${p}tx2`, 300, { status: "accepted", livemode: true }));
  });
  out.updated = await store.tx((u) =>
    u.med.updateCase(`${p}c1`, { status: "appealed", appealReason: "no", review: null, updatedAt: 150 }),
  );
  await store.tx((u) => u.med.incrementEvidenceCount(`${p}c1`, 160));
  const r = store.read.med;
  out.inScope = await r.caseInScope(scope, `${p}c1`);
  out.otherScope = await r.caseInScope({ ...scope, livemode: true }, `${p}c1`);
  out.byId = await r.caseById(`${p}c4`);
  out.byExternal = (await r.caseByExternalId("acct_m", `${p}ext`))?.id;
  out.active = (await store.tx((u) => u.med.activeCaseOfTransaction(`${p}tx1`, FINAL)))?.id;
  out.activeOther = (await r.activeCaseOfTransaction(`${p}tx2`, FINAL))?.id;
  out.noneActive = await r.activeCaseOfTransaction(`${p}tx2`, ["open", ...FINAL]);
  const ids = (rows: { id: string }[]) => rows.map((x) => x.id);
  out.list = ids(await r.listCases(scope, { limit: 10 }));
  out.listLimit = ids(await r.listCases(scope, { limit: 1 }));
  out.listCursor = ids(await r.listCases(scope, { limit: 10, after: { createdAt: 100, id: `${p}c2` } }));
  out.listFiltered = ids(
    await r.listCases(scope, {
      limit: 10,
      status: "closed",
      type: "other",
      transactionId: `${p}tx2`,
      createdAfter: 150,
      createdBefore: 250,
    }),
  );
  out.medBefore = await r.chargeMed(`${p}tx1`);
  out.medUnreadable = await r.chargeMed(`${p}tx2`);
  out.medMissing = await r.chargeMed(`${p}none`);
  await store.tx((u) => u.med.writeChargeMed(`${p}tx1`, { status: "open", n: 1 }, 170));
  await store.tx((u) => u.med.writeChargeMed(`${p}tx2`, { status: "closed" }, 180));
  out.charges = await raw(store).all(
    "select metadata, status, updated_at from transactions where id in (?, ?) order by id",
    `${p}tx1`,
    `${p}tx2`,
  );
  out.evidence = await store.tx((u) =>
    u.med.insertEvidence({
      id: `${p}e1`,
      caseId: `${p}c1`,
      accountId: "acct_m",
      livemode: false,
      fileName: "a.pdf",
      fileSize: 10,
      mimeType: "application/pdf",
      uploadedBy: "merchant",
      state: "requested",
      uploadExpiresAt: 999,
      createdAt: 100,
    }),
  );
  await store.tx(async (u) => {
    for (const [id, at] of [
      ["e2", 200],
      ["e3", 200],
      ["e4", 100],
    ] as const)
      await u.med.insertEvidence({
        id: `${p}${id}`,
        caseId: `${p}c1`,
        accountId: "acct_m",
        livemode: false,
        fileName: "b.png",
        fileSize: 5,
        mimeType: "image/png",
        uploadedBy: "merchant",
        state: "confirmed",
        uploadExpiresAt: 999,
        uploadedAt: at,
        createdAt: 100,
      });
  });
  out.evidenceUpdated = await store.tx((u) =>
    u.med.updateEvidence(`${p}e1`, {
      state: "received",
      storedSize: 10,
      sha256: "ab",
      storageKey: "k",
      receivedAt: 120,
    }),
  );
  out.evidenceOfCase = await r.evidenceOfCase(`${p}c1`, `${p}e1`);
  out.evidenceOtherCase = await r.evidenceOfCase(`${p}c2`, `${p}e1`);
  out.evidenceById = await store.tx((u) => u.med.evidenceById(`${p}e2`));
  out.confirmed = ids(await r.confirmedEvidence(`${p}c1`));
  out.noSecret = await r.secret(`${p}s`);
  out.kept = await store.tx((u) => u.med.keepSecret(`${p}s`, "first", 1));
  out.keptAgain = await store.tx((u) => u.med.keepSecret(`${p}s`, "second", 2));
  out.secret = await r.secret(`${p}s`);
  return out;
}

describe("the PostgreSQL med repository", () => {
  test("answers every method as the SQLite twin does", async () => {
    const p = `m${++seq}_`;
    const want = await medScript(sqliteStore(), p);
    expect(want.list).toEqual([`${p}c3`, `${p}c2`, `${p}c1`]);
    expect(want.confirmed).toEqual([`${p}e3`, `${p}e2`, `${p}e4`]);
    expect(await medScript(pg, p)).toEqual(want);
  });

  test("keeps the first of two concurrent secrets", async () => {
    const name = `s${++seq}`;
    const kept = await Promise.all([
      pg.tx((u) => u.med.keepSecret(name, "a", 1)),
      other.tx((u) => u.med.keepSecret(name, "b", 1)),
    ]);
    expect(kept[0]).toBe(kept[1]);
  });

  test("a second opening on one transaction waits for the first and then sees its case", async () => {
    const p = `m${++seq}_`;
    await insertTransaction(pg, `${p}tx`, "{}");
    const hold = deferred();
    const checked = deferred();
    const first = pg.tx(async (u) => {
      if (await u.med.activeCaseOfTransaction(`${p}tx`, FINAL)) throw new Error("unexpected case");
      checked.resolve();
      await u.med.insertCase(medCase(`${p}c1`, `${p}tx`, 1));
      await hold.promise;
    });
    await checked.promise;
    const second = other.tx(async (u) => (await u.med.activeCaseOfTransaction(`${p}tx`, FINAL))?.id);
    expect(await settlesWithin(second, 300)).toBe(false);
    hold.resolve();
    await first;
    expect(await second).toBe(`${p}c1`);
  });

  test("a case read in a unit is locked until that unit ends", async () => {
    const p = `m${++seq}_`;
    await pg.tx((u) => u.med.insertCase(medCase(`${p}c1`, `${p}tx`, 1)));
    const hold = deferred();
    const read = deferred();
    const first = pg.tx(async (u) => {
      const row = (await u.med.caseById(`${p}c1`))!;
      read.resolve();
      await hold.promise;
      await u.med.updateCase(row.id, { status: "accepted" });
    });
    await read.promise;
    const second = other.tx(
      async (u) => (await u.med.caseInScope({ accountId: "acct_m", livemode: false }, `${p}c1`))?.status,
    );
    expect(await settlesWithin(second, 300)).toBe(false);
    expect((await other.read.med.caseById(`${p}c1`))?.status).toBe("open"); // reads outside a unit never wait
    hold.resolve();
    await first;
    expect(await second).toBe("accepted");
  });
});
