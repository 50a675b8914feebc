/**
 * The BCB API Pix v2 HTTP client (src/providers/bcb-pix-v2/client.ts) against psp-sim over real
 * mTLS: OAuth2 client credentials (Basic or form, scope), the token cache (60 s margin on the
 * injected clock), one refresh on a 401, typed failures (PSP problem, refused credentials,
 * TLS refusal, refused connection, timeouts), the per-connection cap and the API query extras.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createCa, issue } from "../../src/psp-sim/certs";
import { BcbPixClient } from "../../src/providers/bcb-pix-v2/client";
import { Limiter } from "../../src/providers/bcb-pix-v2/limiter";
import { SimClient, startFixture, type SimFixture } from "../psp-sim/support";
import { simClient, simConnection } from "./support";

let fx: SimFixture;
let control: SimClient;
beforeAll(async () => {
  fx = await startFixture();
  control = new SimClient(fx);
});
afterAll(() => fx.cleanup());

const tokenCalls = (log: { url: string }[]) => log.filter((e) => e.url === fx.sim.tokenUrl).length;

describe("tokens", () => {
  test("obtains a token with Basic client credentials and reuses it for later calls", async () => {
    const { client, log } = simClient(fx);
    const a = await client.call("GET", "/webhook");
    const b = await client.call("GET", "/webhook");
    expect(a.kind).toBe("ok");
    expect(b.kind).toBe("ok");
    expect(tokenCalls(log)).toBe(1);
    const tokenCall = log.find((e) => e.url === fx.sim.tokenUrl)!;
    expect(tokenCall.method).toBe("POST");
    expect(tokenCall.body).toBe("grant_type=client_credentials");
    const conn = simConnection(fx);
    expect(tokenCall.headers.authorization).toBe(
      `Basic ${Buffer.from(`${conn.clientId}:${conn.clientSecret}`).toString("base64")}`,
    );
    expect(tokenCall.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(
      log.filter((e) => e.url !== fx.sim.tokenUrl).every((e) => e.headers.authorization?.startsWith("Bearer ")),
    ).toBe(true);
  });

  test("keeps the token until 60 s before expires_in, then fetches a new one", async () => {
    const { client, log } = simClient(fx);
    expect((await client.call("GET", "/webhook")).kind).toBe("ok");
    fx.clock.advance(3600 - 60 - 0.001);
    expect((await client.call("GET", "/webhook")).kind).toBe("ok");
    expect(tokenCalls(log)).toBe(1);
    fx.clock.advance(0.001);
    expect((await client.call("GET", "/webhook")).kind).toBe("ok");
    expect(tokenCalls(log)).toBe(2);
  });

  test("asks the token endpoint once when many calls start together", async () => {
    const { client, log } = simClient(fx);
    const results = await Promise.all(Array.from({ length: 6 }, () => client.call("GET", "/webhook")));
    expect(results.map((r) => r.kind)).toEqual(Array(6).fill("ok"));
    expect(tokenCalls(log)).toBe(1);
  });

  test("a 401 from the API (token expired at the PSP) gets one fresh token and the call succeeds", async () => {
    const { client, log } = simClient(fx);
    expect((await client.call("GET", "/webhook")).kind).toBe("ok");
    expect((await control.control("POST", "/_sim/tokens/expire", {})).status).toBe(200);
    const r = await client.call("GET", "/webhook");
    expect(r.kind).toBe("ok");
    expect(tokenCalls(log)).toBe(2);
    expect(log.map((e) => e.status)).toEqual([200, 200, 401, 200, 200]);
  });

  test("a 401 again with the fresh token is an auth failure, not a loop", async () => {
    const seen: string[] = [];
    const client = new BcbPixClient(simConnection(fx), {
      clock: fx.clock,
      fetch: async (input, init) => {
        const url = String(input);
        seen.push(url === fx.sim.tokenUrl ? "token" : "api");
        if (url === fx.sim.tokenUrl) return fetch(input, init);
        return new Response(
          JSON.stringify({ type: "about:blank", title: "Unauthorized", status: 401, detail: "token revoked" }),
          { status: 401 },
        );
      },
    });
    const r = await client.call("GET", "/webhook");
    expect(r).toEqual({
      kind: "auth_failed",
      status: 401,
      error: null,
      message: "the API refused a fresh token: 401 Unauthorized: token revoked",
    });
    expect(seen).toEqual(["token", "api", "token", "api"]);
  });

  test("sends the scope when the connection has one, and the PSP's refusal of it is an auth failure", async () => {
    const ok = simClient(fx, { scope: "cob.read cob.write webhook.read webhook.write" });
    expect((await ok.client.call("GET", "/webhook")).kind).toBe("ok");
    expect(ok.log[0]!.body).toBe("grant_type=client_credentials&scope=cob.read+cob.write+webhook.read+webhook.write");
    const bad = simClient(fx, { scope: "cob.read rec.write" });
    const r = await bad.client.token();
    expect(r).toEqual({
      kind: "auth_failed",
      status: 400,
      error: "invalid_scope",
      message: "400 invalid_scope: unknown scope: rec.write",
    });
  });

  test("puts the credentials in the form when the connection says so (no Authorization header)", async () => {
    const { client, log } = simClient(fx, { tokenAuth: "form" });
    expect((await client.token()).kind).toBe("ok");
    const conn = simConnection(fx);
    expect(log[0]!.headers.authorization).toBeUndefined();
    expect(new URLSearchParams(log[0]!.body!).get("client_id")).toBe(conn.clientId);
    expect(new URLSearchParams(log[0]!.body!).get("client_secret")).toBe(conn.clientSecret);
  });
});

describe("failures", () => {
  test("a wrong client secret is an auth failure carrying the PSP's status and reason, never the secret", async () => {
    const { client } = simClient(fx, { clientSecret: "not-the-secret" });
    const r = await client.call("GET", "/webhook");
    expect(r).toEqual({
      kind: "auth_failed",
      status: 401,
      error: "invalid_client",
      message: "401 invalid_client: unknown client or wrong secret",
    });
    expect(JSON.stringify(r)).not.toContain("not-the-secret");
  });

  test("a client certificate from another CA is refused at the TLS handshake: a network failure naming the token URL", async () => {
    const other = await issue(await createCa("another CA"), "intruder", "client");
    const { client } = simClient(fx, { certificate: other.cert, privateKey: other.key });
    const r = await client.token();
    expect(r.kind).toBe("network");
    expect(r.kind === "network" && r.message).toStartWith(`POST ${fx.sim.tokenUrl}: `);
  });

  test("without the PSP's CA the server certificate is not trusted", async () => {
    const { client } = simClient(fx, { caCertificates: null });
    const r = await client.token();
    expect(r.kind).toBe("network");
    expect(r.kind === "network" && r.message).toContain("SELF_SIGNED_CERT_IN_CHAIN");
  });

  test("a refused connection is a network failure", async () => {
    const { client } = simClient(fx, { tokenUrl: "https://127.0.0.1:1/oauth/token" });
    const r = await client.token();
    expect(r.kind).toBe("network");
    expect(r.kind === "network" && r.message).toContain("ECONNREFUSED");
  });

  test("an API Pix problem (RFC 7807) keeps its status, type, title, detail and violations", async () => {
    const { client } = simClient(fx);
    const r = await client.call("GET", "/cob/short");
    expect(r).toMatchObject({
      kind: "http_error",
      status: 400,
      type: "https://pix.bcb.gov.br/api/v2/error/CobConsultaInvalida",
      title: "Consulta de cobrança inválida.",
      violacoes: [{ propriedade: "txid", valor: "short" }],
    });
    expect(r.kind === "http_error" && r.message).toStartWith("400 Consulta de cobrança inválida.: ");
  });

  test("a 503 of the PSP is an http error with its status", async () => {
    const { client } = simClient(fx);
    expect((await client.token()).kind).toBe("ok");
    await control.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "GET /webhook" });
    const r = await client.call("GET", "/webhook");
    expect(r.kind).toBe("http_error");
    expect(r.kind === "http_error" && r.status).toBe(503);
    expect((await client.call("GET", "/webhook")).kind).toBe("ok");
  });
});

describe("timeouts", () => {
  // A server that never answers, and one that sends headers and then never ends its body.
  const silent = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Promise<Response>(() => {}) });
  const trickle = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("{")) }), { status: 200 }),
  });
  afterAll(() => {
    silent.stop(true);
    trickle.stop(true);
  });

  test("no response headers within the connect timeout is a connect timeout", async () => {
    const { client } = simClient(
      fx,
      { tokenUrl: `http://127.0.0.1:${silent.port}/token` },
      { connectTimeoutMs: 50, totalTimeoutMs: 5000 },
    );
    expect(await client.token()).toEqual({
      kind: "timeout",
      phase: "connect",
      message: `POST http://127.0.0.1:${silent.port}/token: no answer within 50 ms`,
    });
  });

  test("a body that never ends is a total timeout", async () => {
    const { client } = simClient(
      fx,
      { tokenUrl: `http://127.0.0.1:${trickle.port}/token` },
      { connectTimeoutMs: 5000, totalTimeoutMs: 80 },
    );
    expect(await client.token()).toEqual({
      kind: "timeout",
      phase: "total",
      message: `POST http://127.0.0.1:${trickle.port}/token: no complete answer within 80 ms`,
    });
  });
});

describe("concurrency and PSP extras", () => {
  test("never has more than maxConcurrent calls of one connection in flight", async () => {
    let now = 0;
    let peak = 0;
    const client = new BcbPixClient(simConnection(fx), {
      clock: fx.clock,
      maxConcurrent: 2,
      fetch: async (input, init) => {
        now++;
        peak = Math.max(peak, now);
        try {
          return await fetch(input, init);
        } finally {
          now--;
        }
      },
    });
    const results = await Promise.all(Array.from({ length: 8 }, () => client.call("GET", "/webhook")));
    expect(results.every((r) => r.kind === "ok")).toBe(true);
    expect(peak).toBe(2);
  });

  test("the limiter hands slots over in order and releases them on failure", async () => {
    const l = new Limiter(1);
    const order: number[] = [];
    let release!: () => void;
    const first = l.run(() => new Promise<void>((r) => (release = r)).then(() => order.push(1)));
    const second = l.run(async () => {
      order.push(2);
      throw new Error("boom");
    });
    const third = l.run(async () => order.push(3));
    expect(l.queued).toBe(2);
    release();
    await first;
    await expect(second).rejects.toThrow("boom");
    await third;
    expect(order).toEqual([1, 2, 3]);
    expect(l.inFlight).toBe(0);
  });

  test("adds the connection's query parameters (e.g. gw-dev-app-key) to API calls, not to the token call", async () => {
    const { client, log } = simClient(fx, { apiQuery: { "gw-dev-app-key": "app-123" } });
    expect((await client.call("GET", "/webhook", { query: { inicio: "2026-11-20T00:00:00Z" } })).kind).toBe("ok");
    expect(log[0]!.url).toBe(fx.sim.tokenUrl);
    expect(new URL(log[1]!.url).searchParams.get("gw-dev-app-key")).toBe("app-123");
    expect(new URL(log[1]!.url).searchParams.get("inicio")).toBe("2026-11-20T00:00:00Z");
    expect(new URL(log[1]!.url).pathname).toBe("/api/v2/webhook");
  });
});
