/** Shared helpers of the payout tests (extensions.md "Payouts (money out)"). */
import { expect } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { loginToken } from "../auth/support";
import { creditChargePayment } from "../../src/domain/ledger";
import { rawId } from "../../src/lib/ids";
import { testDb } from "../support/test-db";

/** Exact field sets, copied from the spec as the oracle (not imported from src). */
export const PAYOUT_FIELDS = [
  "amount",
  "cancelled_at",
  "created_at",
  "currency",
  "description",
  "destination",
  "end_to_end_id",
  "failed_at",
  "failure_code",
  "failure_message",
  "fee",
  "id",
  "livemode",
  "metadata",
  "object",
  "paid_at",
  "status",
];
export const PIX_DESTINATION_FIELDS = [
  "created_at",
  "id",
  "name",
  "object",
  "pix_key",
  "pix_key_type",
  "tax_id",
  "type",
];
export const BANK_DESTINATION_FIELDS = [
  "account",
  "account_type",
  "branch",
  "created_at",
  "id",
  "ispb",
  "name",
  "object",
  "tax_id",
  "type",
];

export type PayoutAccount = SeededAccount & { token: string };

/**
 * A harness whose outbox keeps every event, and an account (settlement at once, `settings` added) with a dashboard
 * token.
 */
export async function setup(
  settings: Record<string, unknown> = {},
  harness?: Harness,
): Promise<{ h: Harness; a: PayoutAccount }> {
  const h = harness ?? createHarness();
  h.subscribeAllEvents = true;
  const a = await h.seedAccount({ settings: { settlementDelaySeconds: 0, ...settings } });
  return { h, a: { ...a, token: await loginToken(h, a.email, a.password) } };
}

/** Puts `amount` centavos in the account's `available` balance of a mode (a paid charge's credit, no fee). */
export async function fund(h: Harness, a: SeededAccount, amount: number, livemode = false): Promise<void> {
  await h.deps.store.tx((uow) =>
    creditChargePayment(h.deps, uow, {
      accountId: a.accountId,
      livemode,
      currency: "BRL",
      amount,
      fee: 0,
      transactionId: rawId(),
    }),
  );
}

/** The `available` balance of the key's mode (GET /v1/wallets/balance). */
export async function available(h: Harness, apiKey: string): Promise<number> {
  const r = await h.call("GET", "/v1/wallets/balance", { key: apiKey });
  expect(r.status).toBe(200);
  return r.body.available;
}

/** Registers an e-mail Pix key destination with the owner's session (201 expected). */
export async function destination(
  h: Harness,
  a: PayoutAccount,
  body: Record<string, unknown> = { type: "pix_key", pix_key_type: "email", pix_key: "fulano@example.com" },
) {
  const r = await h.call("POST", "/v1/payout_destinations", { bearer: a.token, body });
  expect(r.status).toBe(201);
  return r.body;
}

let n = 0;
/** A fresh idempotency key. */
export const idem = () => `payout-${++n}-${Math.random().toString(36).slice(2, 10)}`;

/** POST /v1/payouts with a fresh (or given) Idempotency-Key. */
export function payout(h: Harness, apiKey: string, body: Record<string, unknown>, key = idem()) {
  return h.call("POST", "/v1/payouts", { key: apiKey, body, headers: { "idempotency-key": key } });
}

/** Event types written for payout `id`, oldest first. */
export async function eventTypes(h: Harness, id: string): Promise<string[]> {
  return (
    await testDb(h.deps).all<{ type: string }>(
      "select type from events where transaction_id = ? order by created_at, id",
      id,
    )
  ).map((e) => e.type);
}

/** Bodies of the events of `type` for payout `id`, oldest first. */
export async function eventBodies(h: Harness, id: string, type: string): Promise<any[]> {
  return (
    await testDb(h.deps).all<{ body: string }>(
      "select body from events where transaction_id = ? and type = ? order by created_at, id",
      id,
      type,
    )
  ).map((e) => JSON.parse(e.body));
}
