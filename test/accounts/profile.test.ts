/**
 * The merchant profile (extensions.md "Merchant profile and a repeatable first run"):
 * GET/PATCH /v1/account/profile, its validation, roles, and the operator's lock.
 */
import { describe, expect, test } from "bun:test";
import { addMember, authHarness, seedWithToken } from "../auth/support";

const TOKEN = "op-secret-token-0123456789";
const op = { authorization: `Bearer ${TOKEN}` };
const FIELDS = ["legal_name", "profile_locked", "support_email", "support_phone", "tax_id", "trade_name"];
const EMPTY = {
  legal_name: null,
  trade_name: null,
  tax_id: null,
  support_email: null,
  support_phone: null,
  profile_locked: false,
};

describe("merchant profile: happy path", () => {
  test("a new account's profile is empty and unlocked, read with an API key of either mode", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await h.seedAccount();
    for (const key of [a.testKey, a.liveKey]) {
      const r = await h.call("GET", "/v1/account/profile", { key });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(FIELDS);
      expect(r.body).toEqual(EMPTY);
    }
  });

  test("the OWNER sets every field, normalised; GET shows it; null clears a field; {} changes nothing", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await seedWithToken(h);
    const r = await h.call("PATCH", "/v1/account/profile", {
      bearer: a.token,
      body: {
        legal_name: "  Loja Azul Comércio de Roupas Ltda. ",
        trade_name: "Loja Azul",
        tax_id: "11.222.333/0001-81",
        support_email: " Ajuda@LojaAzul.com.br",
        support_phone: "+55 11 98765-4321",
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe("support_phone");
    const ok = await h.call("PATCH", "/v1/account/profile", {
      bearer: a.token,
      body: {
        legal_name: "  Loja Azul Comércio de Roupas Ltda. ",
        trade_name: "Loja Azul",
        tax_id: "11.222.333/0001-81",
        support_email: " Ajuda@LojaAzul.com.br",
        support_phone: "+5511987654321",
      },
    });
    expect(ok.status).toBe(200);
    const want = {
      legal_name: "Loja Azul Comércio de Roupas Ltda.",
      trade_name: "Loja Azul",
      tax_id: "11222333000181",
      support_email: "ajuda@lojaazul.com.br",
      support_phone: "+5511987654321",
      profile_locked: false,
    };
    expect(ok.body).toEqual(want);
    expect((await h.call("GET", "/v1/account/profile", { key: a.testKey })).body).toEqual(want);
    // legal_name and tax_id are the operator settings' columns: GET /v1/account shows them too.
    const settings = (await h.call("GET", "/v1/account", { bearer: a.token })).body.settings;
    expect({ legal_name: settings.legal_name, tax_id: settings.tax_id }).toEqual({
      legal_name: want.legal_name,
      tax_id: want.tax_id,
    });
    const cleared = await h.call("PATCH", "/v1/account/profile", {
      bearer: a.token,
      body: { support_phone: null, tax_id: "529.982.247-25" },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ ...want, support_phone: null, tax_id: "52998224725" });
    const same = await h.call("PATCH", "/v1/account/profile", { bearer: a.token, body: {} });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(cleared.body);
  });

  test("an ADMIN may change the profile", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await seedWithToken(h);
    const admin = await addMember(h, a.token, "ADMIN");
    const r = await h.call("PATCH", "/v1/account/profile", {
      bearer: admin.token,
      body: { trade_name: "Loja da Admin" },
    });
    expect(r.status).toBe(200);
    expect(r.body.trade_name).toBe("Loja da Admin");
  });
});

describe("merchant profile: errors", () => {
  test.each([
    [{ tax_id: "11.222.333/0001-82" }, "invalid_tax_id", "tax_id"],
    [{ tax_id: "123" }, "invalid_tax_id", "tax_id"],
    [{ legal_name: "   " }, "invalid_request", "legal_name"],
    [{ trade_name: " " }, "invalid_request", "trade_name"],
    [{ support_email: "not an e-mail" }, "invalid_request", "support_email"],
    [{ support_phone: "11987654321" }, "invalid_request", "support_phone"],
    [{ support_phone: "+551100" }, "invalid_request", "support_phone"],
    [{ trade_name: 7 }, "invalid_request", "trade_name"],
    [{ nickname: "x" }, "invalid_request", undefined],
  ])("PATCH %j answers 400 %s and changes nothing", async (body, code, param) => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await seedWithToken(h);
    const r = await h.call("PATCH", "/v1/account/profile", { bearer: a.token, body });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(code);
    if (param) expect(r.body.error.param).toBe(param);
    expect((await h.call("GET", "/v1/account/profile", { key: a.testKey })).body).toEqual(EMPTY);
  });

  test("DEVELOPER and VIEWER get 403 API_KEY_ROLE_REQUIRED; an API key cannot PATCH (401)", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await seedWithToken(h);
    for (const role of ["DEVELOPER", "VIEWER"]) {
      const m = await addMember(h, a.token, role);
      const r = await h.call("PATCH", "/v1/account/profile", { bearer: m.token, body: { trade_name: "Nope" } });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("API_KEY_ROLE_REQUIRED");
      // Any member may read it.
      const read = await h.call("GET", "/v1/account/profile", { bearer: m.token });
      expect(read.status).toBe(200);
      expect(read.body).toEqual(EMPTY);
    }
    const k = await h.call("PATCH", "/v1/account/profile", { key: a.testKey, body: { trade_name: "Nope" } });
    expect(k.status).toBe(401);
    expect((await h.call("GET", "/v1/account/profile")).status).toBe(401);
    expect((await h.call("GET", "/v1/account/profile", { key: a.testKey })).body).toEqual(EMPTY);
  });
});

describe("merchant profile: the operator", () => {
  test("the operator sets the profile and locks it; the merchant's PATCH then answers 403 profile_locked and changes nothing", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await seedWithToken(h);
    const path = `/v1/operator/accounts/${a.accountId}`;
    const r = await h.call("PATCH", path, {
      headers: op,
      body: {
        legal_name: "Loja Azul Ltda.",
        tax_id: "11222333000181",
        trade_name: "Loja Azul",
        support_email: "SAC@lojaazul.com.br",
        support_phone: "+5511987654321",
        profile_locked: true,
      },
    });
    expect(r.status).toBe(200);
    // The operator's answer keeps its keys (the settings); the profile shows the rest.
    expect(r.body.legal_name).toBe("Loja Azul Ltda.");
    expect("trade_name" in r.body).toBe(false);
    const locked = {
      legal_name: "Loja Azul Ltda.",
      trade_name: "Loja Azul",
      tax_id: "11222333000181",
      support_email: "sac@lojaazul.com.br",
      support_phone: "+5511987654321",
      profile_locked: true,
    };
    expect((await h.call("GET", "/v1/account/profile", { key: a.testKey })).body).toEqual(locked);
    const refused = await h.call("PATCH", "/v1/account/profile", { bearer: a.token, body: { trade_name: "Outra" } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.type).toBe("permission_error");
    expect(refused.body.error.code).toBe("profile_locked");
    expect((await h.call("GET", "/v1/account/profile", { key: a.testKey })).body).toEqual(locked);
    // Unlocked by the operator, the merchant may edit again.
    expect((await h.call("PATCH", path, { headers: op, body: { profile_locked: false } })).status).toBe(200);
    const again = await h.call("PATCH", "/v1/account/profile", { bearer: a.token, body: { trade_name: "Outra" } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...locked, trade_name: "Outra", profile_locked: false });
  });

  test("the operator's profile fields are validated like the merchant's (400, nothing written)", async () => {
    const h = authHarness({ operatorToken: TOKEN });
    const a = await h.seedAccount();
    const path = `/v1/operator/accounts/${a.accountId}`;
    for (const [body, param] of [
      [{ support_phone: "123" }, "support_phone"],
      [{ support_email: "x" }, "support_email"],
      [{ profile_locked: "yes" }, "profile_locked"],
    ] as const) {
      const r = await h.call("PATCH", path, { headers: op, body: { ...body, pix_fee_bps: 77 } });
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(param);
    }
    expect((await h.call("GET", "/v1/account/profile", { key: a.testKey })).body).toEqual(EMPTY);
  });
});
