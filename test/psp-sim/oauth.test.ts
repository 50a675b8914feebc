/**
 * psp-sim OAuth2 client credentials (RFC 6749 4.4 / 5.2) and bearer tokens: expiry by the clock
 * and by the control route, scopes, and the 401/403 answers of the API.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SimClient, startFixture, type SimFixture } from "./support";

let fx: SimFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.cleanup());

describe("POST /oauth/token", () => {
  test("Basic credentials and grant_type=client_credentials give a bearer token with expires_in and every scope", async () => {
    const r = await new SimClient(fx).login();
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
    expect(r.body.token_type).toBe("Bearer");
    expect(r.body.expires_in).toBe(3600);
    expect(r.body.scope).toBe(
      "cob.write cob.read pix.write pix.read webhook.write webhook.read pix.send gn.pix.send.read gn.balance.read gn.infractions.read gn.infractions.write",
    );
    expect(r.body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  test("credentials in the form body (client_secret_post) are accepted too", async () => {
    const c = new SimClient(fx);
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: fx.init.body.client_id,
      client_secret: fx.init.body.client_secret,
    });
    const r = await c.raw("POST", fx.sim.tokenUrl, {
      body: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(r.status).toBe(200);
  });

  test("a wrong secret is 401 invalid_client with WWW-Authenticate Basic, and issues no token", async () => {
    const c = new SimClient(fx);
    const r = await c.login("not-the-secret");
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "invalid_client", error_description: "unknown client or wrong secret" });
    expect(r.headers.get("www-authenticate")).toBe('Basic realm="psp-sim"');
    expect(c.token).toBe("");
  });

  test("another grant type is 400 unsupported_grant_type; none is 400 invalid_request", async () => {
    const c = new SimClient(fx);
    expect((await c.login(undefined, "grant_type=password")).body.error).toBe("unsupported_grant_type");
    const none = await c.login(undefined, "");
    expect(none.status).toBe(400);
    expect(none.body.error).toBe("invalid_request");
  });

  test("an unknown scope is 400 invalid_scope; a narrower scope is granted as asked", async () => {
    const c = new SimClient(fx);
    const bad = await c.login(undefined, "grant_type=client_credentials&scope=cob.read%20cobv.write");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "invalid_scope", error_description: "unknown scope: cobv.write" });
    const narrow = await c.login(undefined, "grant_type=client_credentials&scope=cob.read");
    expect(narrow.body.scope).toBe("cob.read");
  });
});

describe("bearer tokens on the API", () => {
  test("a token lacking the route's scope is 403 AcessoNegado", async () => {
    const c = new SimClient(fx);
    await c.login(undefined, "grant_type=client_credentials&scope=cob.read");
    const r = await c.api("GET", "/webhook");
    expect(r.status).toBe(403);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body).toEqual({
      type: "https://pix.bcb.gov.br/api/v2/error/AcessoNegado",
      title: "Acesso Negado",
      status: 403,
      detail: "o token não tem o escopo webhook.read",
    });
  });

  test("a token expires after expires_in seconds of the clock: 401 invalid_token, and a new token works", async () => {
    const c = new SimClient(fx);
    await c.login();
    fx.clock.advance(3599);
    expect((await c.api("GET", "/webhook")).status).toBe(200);
    fx.clock.advance(1);
    const r = await c.api("GET", "/webhook");
    expect(r.status).toBe(401);
    expect(r.body.detail).toBe("token expired");
    expect(r.headers.get("www-authenticate")).toBe(
      'Bearer realm="psp-sim", error="invalid_token", error_description="token expired"',
    );
    await c.login();
    expect((await c.api("GET", "/webhook")).status).toBe(200);
  });

  test("the control route expires every token at once and sets the lifetime of new ones", async () => {
    const a = new SimClient(fx);
    const b = new SimClient(fx);
    await a.login();
    await b.login();
    const r = await a.control("POST", "/_sim/tokens/expire", { ttl_seconds: 60 });
    expect(r.status).toBe(200);
    expect(r.body.expired).toBeGreaterThanOrEqual(2);
    expect(r.body.token_ttl_seconds).toBe(60);
    expect((await a.api("GET", "/webhook")).status).toBe(401);
    expect((await b.api("GET", "/webhook")).status).toBe(401);
    expect((await a.login()).body.expires_in).toBe(60);
    expect((await a.api("GET", "/webhook")).status).toBe(200);
    fx.clock.advance(60);
    expect((await a.api("GET", "/webhook")).status).toBe(401);
    await a.control("POST", "/_sim/tokens/expire", { ttl_seconds: 3600 });
  });

  test("an unknown token is 401 unknown token; the control route refuses an unknown field with 400", async () => {
    const c = new SimClient(fx);
    c.token = "forged";
    expect((await c.api("GET", "/pix/E99999999202611201200abcdefghijk")).body.detail).toBe("unknown token");
    const r = await c.control("POST", "/_sim/tokens/expire", { ttl: 5 });
    expect(r.status).toBe(400);
    expect(r.body.type).toBe("urn:psp-sim:error:ControleInvalido");
  });

  test("the auth fault refuses the next N token requests as a wrong secret would, then the right secret works again", async () => {
    const c = new SimClient(fx);
    const set = await c.control("POST", "/_sim/faults/auth", { count: 2 });
    expect(set.status).toBe(200);
    expect(set.body.auth_failures).toBe(2);
    for (let i = 0; i < 2; i++) {
      const r = await c.login();
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: "invalid_client", error_description: "unknown client or wrong secret" });
    }
    expect(c.token).toBe("");
    expect((await c.control("GET", "/_sim/faults")).body.auth_failures).toBe(0);
    expect((await c.login()).status).toBe(200);
    expect((await c.control("POST", "/_sim/faults/auth", { count: 0 })).status).toBe(400);
    expect((await c.control("POST", "/_sim/faults/auth", { count: 1, match: "x" })).status).toBe(400);
  });
});

describe("more clients", () => {
  test("POST /_sim/clients adds a receiver with its own credentials and key; each client sees only its own cobs, even under the same txid", async () => {
    const a = new SimClient(fx);
    await a.login();
    const made = await a.control("POST", "/_sim/clients", { name: "Segunda Loja" });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body).sort()).toEqual(Object.keys(fx.init.body).sort());
    expect(made.body).toMatchObject({
      type: "bcb_pix_v2",
      api_url: fx.sim.apiUrl,
      token_url: fx.sim.tokenUrl,
      certificate: fx.init.body.certificate,
    });
    expect(made.body.client_id).not.toBe(fx.init.body.client_id);
    const b = new SimClient(fx, undefined, made.body);
    expect((await b.login()).status).toBe(200);
    expect((await b.login(fx.init.body.client_secret)).status).toBe(401);
    const id = "SAMEtxid0000000000000000000000";
    expect((await a.putCob(id)).status).toBe(201);
    expect((await b.api("GET", `/cob/${id}`)).status).toBe(404);
    expect((await b.putCob(id, { chave: fx.init.body.pix_key })).body.violacoes[0].propriedade).toBe("cob.chave");
    const mine = await b.putCob(id, { valor: { original: "1.00" } });
    expect(mine.status).toBe(201);
    expect(mine.body.chave).toBe(made.body.pix_key);
    expect((await a.api("GET", `/cob/${id}`)).body.valor.original).toBe("123.45");
    const ambiguous = await a.control("POST", `/_sim/cob/${id}/pay`);
    expect(ambiguous.status).toBe(400);
    const paid = await a.control("POST", `/_sim/cob/${id}/pay?client_id=${made.body.client_id}`);
    expect(paid.body.pix.valor).toBe("1.00");
    expect((await a.api("GET", `/cob/${id}`)).body.status).toBe("ATIVA");
    expect((await a.api("GET", `/pix/${paid.body.pix.endToEndId}`)).status).toBe(404);
    const taken = await a.control("POST", "/_sim/clients", { pix_key: made.body.pix_key });
    expect(taken.status).toBe(409);
  });
});
