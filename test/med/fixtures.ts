/**
 * MED test fixtures: a harness with a private evidence folder, paid charges (through the real
 * `POST /v1/charges` + sandbox `pay` helper when those routes answer, else a direct PAID
 * transaction row credited through the ledger), balances, events and charge status readers.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { creditChargePayment } from "../../src/domain/ledger";
import { PUBLIC_STATUS, type TransactionStatus } from "../../src/domain/charges/model";
import { rawId } from "../../src/lib/ids";
import type { Config } from "../../src/config";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { ledgerBalance } from "../support/ledger";
import { testDb } from "../support/test-db";
import { transactionRow } from "../payments/support";

export const CASE_KEYS = [
  "amount",
  "appeal_reason",
  "appealed_at",
  "charge_id",
  "closed_at",
  "created_at",
  "currency",
  "evidence_count",
  "evidence_requested_at",
  "id",
  "money_outcome",
  "object",
  "opened_at",
  "reason",
  "response_deadline",
  "status",
  "type",
  "updated_at",
];

export interface MedHarness extends Harness {
  storageDir: string;
}

/**
 * createHarness with its own evidence folder (config.storageDir, created only when a file is
 * stored; remove it with `rmSync(h.storageDir, {recursive: true, force: true})`) and the test
 * clock helper enabled.
 */
export function medHarness(config: Partial<Config> = {}): MedHarness {
  const storageDir = join(tmpdir(), "cofre-med-test", rawId());
  const h = createHarness({ storageDir, testClock: true, ...config });
  h.subscribeAllEvents = true; // the outbox keeps only events with a subscriber (tests read it)
  return { ...h, storageDir };
}

/** An account whose paid charges become `available` at once (settlement delay 0). */
export async function seedMerchant(h: Harness, settlementDelaySeconds = 0): Promise<SeededAccount> {
  return h.seedAccount({ settings: { settlementDelaySeconds } });
}

export interface PaidCharge {
  /** `ch_...` */
  chargeId: string;
  rawId: string;
  amount: number;
}

let viaApi: boolean | null = null;

/**
 * A paid Pix charge of `amount` centavos in the test mode of `a`. Uses the public API when it is
 * wired (POST /v1/charges then POST /v1/test_helpers/charges/{id}/pay), else inserts a PAID
 * transaction and credits the ledger the way settlement does. Jobs are drained afterwards so a
 * 0-second settlement delay makes the amount `available`.
 */
export async function paidCharge(
  h: Harness,
  a: SeededAccount,
  amount = 10_000,
  opts: { livemode?: boolean } = {},
): Promise<PaidCharge> {
  const livemode = opts.livemode ?? false;
  if (!livemode && viaApi !== false) {
    const created = await h.call("POST", "/v1/charges", {
      key: a.testKey,
      headers: { "idempotency-key": `med-fixture-${rawId()}` },
      body: { amount, payment_method: "pix", customer: { name: "Pagador Teste", document: "52998224725" } },
    });
    if (created.status === 201) {
      const paid = await h.call("POST", `/v1/test_helpers/charges/${created.body.id}/pay`, {
        key: a.testKey,
        body: {},
      });
      if (paid.status === 200 && paid.body.status === "paid") {
        viaApi = true;
        await h.deps.jobs.drain();
        return { chargeId: created.body.id, rawId: created.body.id.slice(3), amount };
      }
    }
    viaApi = false;
  }
  const id = rawId();
  const now = h.clock.nowMs();
  await h.deps.store.tx(async (uow) => {
    // setup: a row no API writes, in the unit that credits it
    await uow.charges.insert(
      transactionRow({
        id,
        accountId: a.accountId,
        livemode,
        amount,
        currency: "BRL",
        status: "PAID",
        paymentMethods: JSON.stringify(["PIX"]),
        paidWith: "PIX",
        origin: "charges",
        endToEndId: `E99999999${new Date(now).toISOString().replace(/\D/g, "").slice(0, 12)}${rawId().slice(-11)}`,
        platformFee: 0,
        paidAt: now,
        createdAt: now,
        updatedAt: now,
      }),
    );
    await creditChargePayment(h.deps, uow, {
      accountId: a.accountId,
      livemode,
      currency: "BRL",
      amount,
      fee: 0,
      transactionId: id,
    });
  });
  await h.deps.jobs.drain();
  return { chargeId: `ch_${id}`, rawId: id, amount };
}

/** `{available, pending, retained}` of the test (or live) BRL balance. */
export function balance(h: Harness, a: SeededAccount, livemode = false) {
  return ledgerBalance(h.deps, a.accountId, livemode);
}

/** Public status of the charge: GET /v1/charges/{id} when wired, else derived from the row. */
export async function chargeStatus(h: Harness, a: SeededAccount, c: PaidCharge): Promise<string> {
  const res = await h.call("GET", `/v1/charges/${c.chargeId}`, { key: a.testKey });
  if (res.status === 200) return res.body.status;
  const row = (await testDb(h.deps).get<{ status: string }>("select status from transactions where id = ?", c.rawId))!;
  return PUBLIC_STATUS[row.status as TransactionStatus];
}

/** `metadata.med` stored on the charge row. */
export async function chargeMed(h: Harness, c: PaidCharge): Promise<Record<string, any>> {
  const row = (await testDb(h.deps).get<{ metadata: string }>(
    "select metadata from transactions where id = ?",
    c.rawId,
  ))!;
  return JSON.parse(row.metadata).med;
}

/** Events of the account (test mode) written at or after `sinceMs`, oldest first, bodies parsed. */
export async function eventsSince(h: Harness, a: SeededAccount, sinceMs = 0, livemode = false) {
  const rows = await testDb(h.deps).all<{ type: string; family: string; transaction_id: string | null; body: string }>(
    "select type, family, transaction_id, body from events where account_id = ? and livemode = ? and created_at >= ? order by created_at, id",
    a.accountId,
    livemode,
    sinceMs,
  );
  return rows.map((e) => ({
    type: e.type,
    family: e.family,
    transactionId: e.transaction_id,
    body: JSON.parse(e.body),
  }));
}

/** Only the MED-family and charge-related events after `mark` (an index into eventsSince). */
export function eventTypes(list: { type: string }[]): string[] {
  return list.map((e) => e.type);
}

/** Opens a MED through the sandbox helper; asserts 201 and returns the case. */
export async function openMed(h: Harness, a: SeededAccount, c: PaidCharge, body: Record<string, unknown> = {}) {
  const res = await h.call("POST", `/v1/test_helpers/charges/${c.chargeId}/med`, { key: a.testKey, body });
  if (res.status !== 201) throw new Error(`open MED failed: ${res.status} ${res.text}`);
  return res.body;
}
