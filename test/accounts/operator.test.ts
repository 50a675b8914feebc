import { describe, expect, test } from "bun:test";
import { getAccountSettings } from "../../src/domain/accounts/settings";
import { authHarness, seedWithToken } from "../auth/support";

const TOKEN = "op-secret-token-0123456789";
const op = { authorization: `Bearer ${TOKEN}` };
const KEYS = [
  "account_velocity_max",
  "customer_velocity_max",
  "default_expires_in",
  "legal_name",
  "payer_lock_enabled",
  "payout_daily_limit",
  "payout_delay_seconds",
  "payout_fee_fixed",
  "pix_fee_bps",
  "pix_fee_fixed",
  "settlement_delay_seconds",
  "tax_id",
  "velocity_window_seconds",
];

describe("operator API: happy path", () => {
  test("PATCH with every field answers 200 with exactly the settings keys, and the change is stored", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await seedWithToken(h);
    const body = {
      payer_lock_enabled: true,
      default_expires_in: 600,
      pix_fee_bps: 150,
      pix_fee_fixed: 25,
      settlement_delay_seconds: 0,
      customer_velocity_max: 3,
      account_velocity_max: 100,
      velocity_window_seconds: 60,
      legal_name: "Café São Jorge Comércio de Alimentos Ltda.",
      tax_id: "11222333000181",
      payout_fee_fixed: 90,
      payout_daily_limit: 500_000,
      payout_delay_seconds: 3600,
    };
    const r = await h.call("PATCH", `/v1/operator/accounts/${a.accountId}`, { headers: op, body });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(KEYS);
    expect(r.body).toEqual(body);
    expect(await getAccountSettings(h.deps.store.read, a.accountId)).toEqual(body);
    expect((await h.call("GET", "/v1/account", { bearer: a.token })).body.settings).toEqual(body);
  });

  test("a partial PATCH changes only the fields sent; null clears a velocity limit; {} returns the settings unchanged", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await h.seedAccount();
    const path = `/v1/operator/accounts/${a.accountId}`;
    await h.call("PATCH", path, { headers: op, body: { customer_velocity_max: 5, pix_fee_bps: 99 } });
    const r = await h.call("PATCH", path, { headers: op, body: { customer_velocity_max: null } });
    expect(r.status).toBe(200);
    expect(r.body.customer_velocity_max).toBeNull();
    expect(r.body.pix_fee_bps).toBe(99);
    const same = await h.call("PATCH", path, { headers: op, body: {} });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(r.body);
  });

  test("range boundaries are accepted: 60 and 86400 s expiry, 0 and 10000 bps, zero fees and delay, window 1 s", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await h.seedAccount();
    const path = `/v1/operator/accounts/${a.accountId}`;
    for (const body of [
      { default_expires_in: 60 },
      { default_expires_in: 86400 },
      { pix_fee_bps: 0 },
      { pix_fee_bps: 10000 },
      { pix_fee_fixed: 0 },
      { settlement_delay_seconds: 0 },
      { velocity_window_seconds: 1 },
      { account_velocity_max: 0 },
      { payout_fee_fixed: 0 },
      { payout_daily_limit: 0 },
      { payout_daily_limit: null },
      { payout_delay_seconds: 0 },
      { payout_delay_seconds: 86400 },
    ]) {
      const r = await h.call("PATCH", path, { headers: op, body });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject(body);
    }
  });
});

describe("operator API: merchant identity (legal_name, tax_id)", () => {
  test("a new account has neither; a masked CNPJ is stored and returned without punctuation", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await seedWithToken(h);
    const path = `/v1/operator/accounts/${a.accountId}`;
    expect(await getAccountSettings(h.deps.store.read, a.accountId)).toMatchObject({ legal_name: null, tax_id: null });
    const r = await h.call("PATCH", path, {
      headers: op,
      body: { legal_name: "  Padaria Pão Quente Ltda. ", tax_id: "11.222.333/0001-81" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ legal_name: "Padaria Pão Quente Ltda.", tax_id: "11222333000181" });
    expect((await h.call("GET", "/v1/account", { bearer: a.token })).body.settings).toMatchObject({
      legal_name: "Padaria Pão Quente Ltda.",
      tax_id: "11222333000181",
    });
  });

  test("a CPF (a sole trader) and an alphanumeric CNPJ are accepted; null clears both", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await h.seedAccount();
    const path = `/v1/operator/accounts/${a.accountId}`;
    expect((await h.call("PATCH", path, { headers: op, body: { tax_id: "529.982.247-25" } })).body.tax_id).toBe(
      "52998224725",
    );
    expect((await h.call("PATCH", path, { headers: op, body: { tax_id: "12.abc.345/01de-35" } })).body.tax_id).toBe(
      "12ABC34501DE35",
    );
    const cleared = await h.call("PATCH", path, { headers: op, body: { legal_name: null, tax_id: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ legal_name: null, tax_id: null });
  });

  test("an invalid CNPJ or CPF is 400 invalid_tax_id and a blank legal name 400 invalid_request; nothing changes", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await h.seedAccount();
    const path = `/v1/operator/accounts/${a.accountId}`;
    await h.call("PATCH", path, { headers: op, body: { legal_name: "Loja Ltda.", tax_id: "11222333000181" } });
    const before = await getAccountSettings(h.deps.store.read, a.accountId);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ tax_id: "11222333000182", pix_fee_bps: 5 }, "tax_id", "invalid_tax_id"],
      [{ tax_id: "52998224726" }, "tax_id", "invalid_tax_id"],
      [{ tax_id: "00000000000000" }, "tax_id", "invalid_tax_id"],
      [{ tax_id: "1234" }, "tax_id", "invalid_tax_id"],
      [{ tax_id: "" }, "tax_id", "invalid_request"],
      [{ tax_id: 11222333000181 }, "tax_id", "invalid_request"],
      [{ legal_name: "   ", pix_fee_bps: 5 }, "legal_name", "invalid_request"],
      [{ legal_name: "x".repeat(201) }, "legal_name", "invalid_request"],
    ];
    for (const [body, param, code] of cases) {
      const r = await h.call("PATCH", path, { headers: op, body });
      expect([r.status, r.body.error.code, r.body.error.param]).toEqual([400, code, param]);
    }
    expect(await getAccountSettings(h.deps.store.read, a.accountId)).toEqual(before!);
  });
});

describe("operator API: errors", () => {
  test("out-of-range, wrongly typed or unknown fields are 400 naming the field, and nothing changes", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await h.seedAccount();
    const path = `/v1/operator/accounts/${a.accountId}`;
    const before = await getAccountSettings(h.deps.store.read, a.accountId);
    const cases: [Record<string, unknown>, string][] = [
      [{ default_expires_in: 59 }, "default_expires_in"],
      [{ default_expires_in: 86401 }, "default_expires_in"],
      [{ default_expires_in: "600" }, "default_expires_in"],
      [{ pix_fee_bps: -1 }, "pix_fee_bps"],
      [{ pix_fee_bps: 10001 }, "pix_fee_bps"],
      [{ pix_fee_bps: 1.5 }, "pix_fee_bps"],
      [{ pix_fee_fixed: -1 }, "pix_fee_fixed"],
      [{ settlement_delay_seconds: -1 }, "settlement_delay_seconds"],
      [{ velocity_window_seconds: 0 }, "velocity_window_seconds"],
      [{ customer_velocity_max: -1 }, "customer_velocity_max"],
      [{ account_velocity_max: "10" }, "account_velocity_max"],
      [{ payer_lock_enabled: "true" }, "payer_lock_enabled"],
      [{ payer_lock_enabled: 1 }, "payer_lock_enabled"],
      [{ velocity_window: 60 }, "velocity_window"],
      [{ pix_fee_bps: 10, fee: 1 }, "fee"],
      [{ payout_fee_fixed: -1 }, "payout_fee_fixed"],
      [{ payout_daily_limit: -1 }, "payout_daily_limit"],
      [{ payout_daily_limit: "100" }, "payout_daily_limit"],
      [{ payout_delay_seconds: 86401 }, "payout_delay_seconds"],
      [{ payout_delay_seconds: -1 }, "payout_delay_seconds"],
    ];
    for (const [body, param] of cases) {
      const r = await h.call("PATCH", path, { headers: op, body });
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe("invalid_request_error");
      expect(r.body.error.param).toBe(param);
    }
    expect(await getAccountSettings(h.deps.store.read, a.accountId)).toEqual(before!);
  });

  test("an unknown account is 404 not_found", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const r = await h.call("PATCH", "/v1/operator/accounts/acct_doesnotexist", {
      headers: op,
      body: { pix_fee_bps: 1 },
    });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("not_found");
  });
});

describe("operator API: security", () => {
  test("anything but the exact operator token is 401 and changes nothing", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await seedWithToken(h);
    const path = `/v1/operator/accounts/${a.accountId}`;
    const before = await getAccountSettings(h.deps.store.read, a.accountId);
    const variants: Record<string, string>[] = [
      {},
      { authorization: TOKEN },
      { authorization: `bearer ${TOKEN}` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Bearer ${a.token}` },
      { authorization: "Bearer " },
      { apikey: a.liveKey },
    ];
    for (const headers of variants) {
      const r = await h.call("PATCH", path, { headers, body: { pix_fee_bps: 500 } });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe("unauthorized");
    }
    // an unknown account is still 401 without the token (no existence oracle)
    expect((await h.call("PATCH", "/v1/operator/accounts/acct_nope", { body: { pix_fee_bps: 1 } })).status).toBe(401);
    expect(await getAccountSettings(h.deps.store.read, a.accountId)).toEqual(before!);
  });

  test("with COFRE_OPERATOR_TOKEN unset every operator route answers 404, whatever the headers", async () => {
    const h = authHarness({ operatorToken: null });
    const a = await h.seedAccount();
    for (const headers of [{}, { authorization: "Bearer " }, { authorization: `Bearer ${TOKEN}` }] as Record<
      string,
      string
    >[]) {
      const r = await h.call("PATCH", `/v1/operator/accounts/${a.accountId}`, { headers, body: { pix_fee_bps: 1 } });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    expect((await getAccountSettings(h.deps.store.read, a.accountId))!.pix_fee_bps).toBe(0);
  });

  test("the operator changes one account's settings; another account keeps its own", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    await h.call("PATCH", `/v1/operator/accounts/${a.accountId}`, { headers: op, body: { pix_fee_bps: 300 } });
    expect((await getAccountSettings(h.deps.store.read, b.accountId))!.pix_fee_bps).toBe(0);
  });
});
