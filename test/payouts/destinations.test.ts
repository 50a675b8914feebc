/**
 * Payout destinations (extensions.md "Payouts (money out)"): registered only from a dashboard
 * session of an OWNER or ADMIN, validated per key type, shown with the tax id masked, removed with
 * a soft delete, every change in the audit log.
 */
import { describe, expect, test } from "bun:test";
import { addMember } from "../auth/support";
import { testDb } from "../support/test-db";
import { BANK_DESTINATION_FIELDS, PIX_DESTINATION_FIELDS, destination, setup } from "./support";

const EMAIL_KEY = { type: "pix_key", pix_key_type: "email", pix_key: "Fulano@Example.com" };
const BANK = {
  type: "bank_account",
  name: "Loja Teste Ltda",
  tax_id: "11.222.333/0001-81",
  ispb: "00360305",
  branch: "0001",
  account: "1234567",
  account_type: "checking",
};

describe("registering destinations: who may", () => {
  test("an API key (test or live) is 401 and nothing is stored", async () => {
    const { h, a } = await setup();
    for (const key of [a.testKey, a.liveKey]) {
      const r = await h.call("POST", "/v1/payout_destinations", { key, body: EMAIL_KEY });
      expect([r.status, r.body.error.code]).toEqual([401, "unauthorized"]);
    }
    expect((await h.call("GET", "/v1/payout_destinations", { key: a.testKey })).body.data).toEqual([]);
  });

  test("a VIEWER or DEVELOPER session is 403 API_KEY_ROLE_REQUIRED; an ADMIN and the OWNER get 201", async () => {
    const { h, a } = await setup();
    for (const role of ["VIEWER", "DEVELOPER"]) {
      const m = await addMember(h, a.token, role);
      const r = await h.call("POST", "/v1/payout_destinations", { bearer: m.token, body: EMAIL_KEY });
      expect([r.status, r.body.error.type, r.body.error.code]).toEqual([
        403,
        "permission_error",
        "API_KEY_ROLE_REQUIRED",
      ]);
      const d = await h.call("DELETE", "/v1/payout_destinations/pd_x", { bearer: m.token });
      expect([d.status, d.body.error.code]).toEqual([403, "API_KEY_ROLE_REQUIRED"]);
    }
    const admin = await addMember(h, a.token, "ADMIN");
    expect((await h.call("POST", "/v1/payout_destinations", { bearer: admin.token, body: EMAIL_KEY })).status).toBe(
      201,
    );
    expect((await h.call("POST", "/v1/payout_destinations", { bearer: a.token, body: BANK })).status).toBe(201);
    expect((await h.call("GET", "/v1/payout_destinations", { key: a.liveKey })).body.data).toHaveLength(2);
  });
});

describe("registering destinations: the views", () => {
  test("a Pix e-mail key is stored lower-cased with exactly the pix_key fields", async () => {
    const { h, a } = await setup();
    const d = await destination(h, a, { ...EMAIL_KEY, name: "Fulano de Tal" });
    expect(Object.keys(d).sort()).toEqual(PIX_DESTINATION_FIELDS);
    expect(d).toEqual({
      id: d.id,
      object: "payout_destination",
      type: "pix_key",
      pix_key: "fulano@example.com",
      pix_key_type: "email",
      name: "Fulano de Tal",
      tax_id: null,
      created_at: "2026-11-20T12:00:00.000Z",
    });
    expect(d.id).toMatch(/^pd_[0-9a-f]{32}$/);
  });

  test("an e-mail key typed full-width or with a zero-width space is stored as the one plain address", async () => {
    const { h, a } = await setup();
    const wide = await destination(h, a, {
      type: "pix_key",
      pix_key_type: "email",
      pix_key: "\uff56iewer@loja.example",
    });
    const hidden = await destination(h, a, {
      type: "pix_key",
      pix_key_type: "email",
      pix_key: "viewer@loja.example\u200b",
    });
    expect([wide.pix_key, hidden.pix_key]).toEqual(["viewer@loja.example", "viewer@loja.example"]);
  });

  test("a bank account has exactly its fields and shows the CNPJ masked; a CPF key and tax id are masked too", async () => {
    const { h, a } = await setup();
    const bank = await destination(h, a, BANK);
    expect(Object.keys(bank).sort()).toEqual(BANK_DESTINATION_FIELDS);
    expect(bank).toMatchObject({
      type: "bank_account",
      name: "Loja Teste Ltda",
      tax_id: "**.222.333/0001-**",
      ispb: "00360305",
      branch: "0001",
      account: "1234567",
      account_type: "checking",
    });
    const cpf = await destination(h, a, {
      type: "pix_key",
      pix_key_type: "cpf",
      pix_key: "529.982.247-25",
      tax_id: "52998224725",
    });
    expect(cpf).toMatchObject({ pix_key: "***.982.247-**", tax_id: "***.982.247-**" });
    expect(JSON.stringify((await h.call("GET", "/v1/payout_destinations", { key: a.testKey })).body)).not.toContain(
      "52998224725",
    );
  });

  test("a phone key in +55 E.164 and an EVP key are accepted and normalised", async () => {
    const { h, a } = await setup();
    expect(
      (await destination(h, a, { type: "pix_key", pix_key_type: "phone", pix_key: "+5511987654321" })).pix_key,
    ).toBe("+5511987654321");
    expect(
      (
        await destination(h, a, {
          type: "pix_key",
          pix_key_type: "evp",
          pix_key: "123E4567-E89B-42D3-A456-426614174000",
        })
      ).pix_key,
    ).toBe("123e4567-e89b-42d3-a456-426614174000");
    expect(
      (await destination(h, a, { type: "pix_key", pix_key_type: "cnpj", pix_key: "11222333000181" })).pix_key,
    ).toBe("**.222.333/0001-**");
  });
});

describe("registering destinations: validation", () => {
  test("bad input is 400 naming the field, and nothing is stored", async () => {
    const { h, a } = await setup();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ type: "pix_key", pix_key_type: "cpf", pix_key: "52998224724" }, "pix_key", "invalid_tax_id"],
      [{ type: "pix_key", pix_key_type: "cnpj", pix_key: "11222333000180" }, "pix_key", "invalid_tax_id"],
      [{ type: "pix_key", pix_key_type: "cnpj", pix_key: "52998224725" }, "pix_key", "invalid_tax_id"],
      [{ type: "pix_key", pix_key_type: "email", pix_key: "not-an-email" }, "pix_key", "invalid_request"],
      [{ type: "pix_key", pix_key_type: "phone", pix_key: "11987654321" }, "pix_key", "invalid_request"],
      [{ type: "pix_key", pix_key_type: "phone", pix_key: "+14155552671" }, "pix_key", "invalid_request"],
      [{ type: "pix_key", pix_key_type: "evp", pix_key: "not-a-uuid" }, "pix_key", "invalid_request"],
      [{ type: "pix_key", pix_key_type: "iban", pix_key: "x" }, "pix_key_type", "invalid_request"],
      [{ type: "pix_key", pix_key: "a@b.co" }, "pix_key_type", "invalid_request"],
      [{ type: "pix_key", pix_key_type: "email", pix_key: "a@b.co", tax_id: "123" }, "tax_id", "invalid_tax_id"],
      [{ type: "pix_key", pix_key_type: "email", pix_key: "a@b.co", ispb: "00360305" }, "ispb", "invalid_request"],
      [{ ...BANK, ispb: "360305" }, "ispb", "invalid_request"],
      [{ ...BANK, branch: "12a" }, "branch", "invalid_request"],
      [{ ...BANK, account: "12-3" }, "account", "invalid_request"],
      [{ ...BANK, account_type: "salary" }, "account_type", "invalid_request"],
      [{ ...BANK, tax_id: "11222333000180" }, "tax_id", "invalid_tax_id"],
      [{ ...BANK, name: undefined }, "name", "invalid_request"],
      [{ ...BANK, pix_key: "a@b.co" }, "pix_key", "invalid_request"],
      [{ type: "wallet" }, "type", "invalid_request"],
      [{ ...EMAIL_KEY, nickname: "x" }, "nickname", "invalid_request"],
    ];
    for (const [body, param, code] of cases) {
      const r = await h.call("POST", "/v1/payout_destinations", { bearer: a.token, body });
      expect([r.status, r.body.error.param, r.body.error.code]).toEqual([400, param, code]);
    }
    expect((await h.call("GET", "/v1/payout_destinations", { key: a.testKey })).body.data).toEqual([]);
  });
});

describe("listing and removing destinations", () => {
  test("GET takes an API key of either mode or a session; DELETE is 204, then 404, and the list no longer shows it", async () => {
    const { h, a } = await setup();
    const d = await destination(h, a);
    for (const opts of [{ key: a.testKey }, { key: a.liveKey }, { bearer: a.token }]) {
      const r = await h.call("GET", "/v1/payout_destinations", opts);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ object: "list", data: [d] });
    }
    expect((await h.call("GET", "/v1/payout_destinations")).status).toBe(401);
    expect((await h.call("DELETE", `/v1/payout_destinations/${d.id}`, { key: a.testKey })).status).toBe(401);
    expect((await h.call("DELETE", `/v1/payout_destinations/${d.id}`, { bearer: a.token })).status).toBe(204);
    const again = await h.call("DELETE", `/v1/payout_destinations/${d.id}`, { bearer: a.token });
    expect([again.status, again.body.error.code]).toEqual([404, "not_found"]);
    expect((await h.call("GET", "/v1/payout_destinations", { key: a.testKey })).body.data).toEqual([]);
  });

  test("another account's destination is neither listed nor removable (404)", async () => {
    const { h, a } = await setup();
    const { a: b } = await setup({}, h);
    const d = await destination(h, a);
    expect((await h.call("GET", "/v1/payout_destinations", { key: b.testKey })).body.data).toEqual([]);
    const r = await h.call("DELETE", `/v1/payout_destinations/${d.id}`, { bearer: b.token });
    expect([r.status, r.body.error.code]).toEqual([404, "not_found"]);
    expect((await h.call("GET", "/v1/payout_destinations", { key: a.testKey })).body.data).toHaveLength(1);
  });

  test("creating and removing write audit entries naming the destination and the member", async () => {
    const { h, a } = await setup();
    const d = await destination(h, a);
    await h.call("DELETE", `/v1/payout_destinations/${d.id}`, { bearer: a.token });
    const rows = await testDb(h.deps).all<{
      action: string;
      target: string;
      actor_user_id: string;
      detail: string | null;
    }>(
      "select action, target, actor_user_id, detail from audit_log where account_id = ? and action like 'payout_destination.%' order by created_at, id",
      a.accountId,
    );
    expect(rows).toEqual([
      {
        action: "payout_destination.created",
        target: d.id,
        actor_user_id: a.userId,
        detail: JSON.stringify({ type: "pix_key", pix_key_type: "email" }),
      },
      { action: "payout_destination.deleted", target: d.id, actor_user_id: a.userId, detail: null },
    ]);
    const log = await h.call("GET", "/v1/account/audit-log", { bearer: a.token });
    expect(log.body.data.map((e: { action: string }) => e.action)).toContain("payout_destination.created");
  });
});
