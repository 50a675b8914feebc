/**
 * psp-sim faults (5xx before or after the operation, latency), state that survives a restart on
 * the same file, the JSONL exchange log, auto-settlement, and the `cofre psp-sim` process itself.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer } from "../foundation/process";
import { SimClient, simCa, startFixture, startReceiver, txid, type SimFixture } from "./support";

let fx: SimFixture;
let c: SimClient;
beforeAll(async () => {
  fx = await startFixture();
  await fx.restart({ exchangeLog: join(fx.root, "exchanges.jsonl") });
  c = new SimClient(fx);
  await c.login();
});
afterAll(() => fx.cleanup());

const cobs = async () => (await c.control("GET", "/_sim/cobs")).body.cobs as { txid: string }[];

describe("injected errors", () => {
  test("a 503 before the operation answers ServicoIndisponivel with Retry-After and creates no cob; the retry creates it", async () => {
    const id = txid();
    await c.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob/" });
    const r = await c.putCob(id);
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("1");
    expect(r.body).toEqual({
      type: "https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel",
      title: "Serviço Indisponível",
      status: 503,
      detail: "Falha injetada pelo simulador.",
    });
    expect((await cobs()).map((x) => x.txid)).not.toContain(id);
    expect((await c.putCob(id)).status).toBe(201);
    expect((await c.control("GET", "/_sim/faults")).body.errors).toEqual([]);
  });

  test("a 504 after the operation loses the answer but keeps the cob; the same PUT again answers it, still one cob at revisao 0", async () => {
    const id = txid();
    await c.control("POST", "/_sim/faults/errors", { status: 504, match: "PUT /cob/", after: true });
    const lost = await c.putCob(id);
    expect(lost.status).toBe(504);
    expect(lost.body.type).toBe("https://pix.bcb.gov.br/api/v2/error/IndisponibilidadePorTempoEsgotado");
    expect((await cobs()).filter((x) => x.txid === id)).toHaveLength(1);
    const again = await c.putCob(id);
    expect(again.status).toBe(201);
    expect(again.body.revisao).toBe(0);
    expect((await cobs()).filter((x) => x.txid === id)).toHaveLength(1);
  });

  test("a rule applies only to calls it matches, count times; the token endpoint can fail too (500)", async () => {
    await c.control("POST", "/_sim/faults/errors", { status: 500, count: 2, match: "POST /oauth/token" });
    expect((await c.api("GET", "/webhook")).status).toBe(200);
    expect((await c.login()).status).toBe(500);
    const second = await c.login();
    expect(second.status).toBe(500);
    expect(second.body.type).toBe("https://pix.bcb.gov.br/api/v2/error/ErroInternoDoServidor");
    expect((await c.login()).status).toBe(200);
  });

  test("DELETE /_sim/faults clears every rule; a bad status is 400", async () => {
    await c.control("POST", "/_sim/faults/errors", { count: 5 });
    await c.control("POST", "/_sim/faults/latency", { ms: 1000 });
    await c.control("POST", "/_sim/callbacks/drop", { count: 3 });
    const cleared = await c.control("DELETE", "/_sim/faults");
    expect(cleared.body).toEqual({ errors: [], latency: [], drop_callbacks: 0, auth_failures: 0 });
    expect((await c.api("GET", "/webhook")).status).toBe(200);
    const bad = await c.control("POST", "/_sim/faults/errors", { status: 502 });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("status must be one of 500, 503, 504");
  });
});

describe("injected latency", () => {
  test("a latency rule delays matching calls by at least its ms, for count calls", async () => {
    await c.control("POST", "/_sim/faults/latency", { ms: 300, count: 1, match: "GET /webhook" });
    const t0 = performance.now();
    expect((await c.api("GET", "/webhook")).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    expect((await c.control("GET", "/_sim/faults")).body.latency).toEqual([]);
  });
});

describe("restart", () => {
  test("cobs, Pix, devoluções, webhooks and tokens survive a restart on the same file", async () => {
    const id = txid();
    await c.putCob(id);
    await c.api("PUT", `/webhook/${c.pixKey}`, { webhookUrl: "https://127.0.0.1:9/hook" });
    const pay = await c.control("POST", `/_sim/cob/${id}/pay`, { valor: "7.00" });
    const e2e = pay.body.pix.endToEndId;
    await c.api("PUT", `/pix/${e2e}/devolucao/r1`, { valor: "2.00" });
    const before = {
      cob: (await c.api("GET", `/cob/${id}`)).body,
      pix: (await c.api("GET", `/pix/${e2e}`)).body,
      counts: (await c.control("GET", "/_sim/state")).body.counts,
    };
    await fx.restart();
    // Same token (stored), same answers.
    expect((await c.api("GET", `/cob/${id}`)).body).toEqual(before.cob);
    expect((await c.api("GET", `/pix/${e2e}`)).body).toEqual(before.pix);
    expect((await c.api("GET", `/webhook/${c.pixKey}`)).body.webhookUrl).toBe("https://127.0.0.1:9/hook");
    expect((await c.control("GET", "/_sim/state")).body.counts).toEqual(before.counts);
    const settled = await c.control("POST", `/_sim/pix/${e2e}/devolucao/r1/settle`);
    expect(settled.body.devolucao.status).toBe("DEVOLVIDO");
  });
});

describe("callbacks cut by a crash", () => {
  test("an attempt left pending in the file is sent when the simulator starts again", async () => {
    let resolve!: (v: { path: string; body: any }) => void;
    const arrived = new Promise<{ path: string; body: any }>((r) => (resolve = r));
    const http = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        resolve({ path: new URL(req.url).pathname, body: await req.json() });
        return new Response(null, { status: 200 });
      },
    });
    try {
      const url = `http://127.0.0.1:${http.port}/cut/pix`;
      const id = fx.sim.env.store.insertCallback(
        fx.init.config.client_id,
        url,
        JSON.stringify({ pix: [] }),
        fx.clock.nowMs(),
      );
      await fx.restart({ exchangeLog: join(fx.root, "exchanges.jsonl") });
      expect(await arrived).toEqual({ path: "/cut/pix", body: { pix: [] } });
      await fx.restart({ exchangeLog: join(fx.root, "exchanges.jsonl") }); // stop() waits for the attempt to be recorded
      const row = (await c.control("GET", "/_sim/callbacks")).body.callbacks.find((x: any) => x.id === id);
      expect(row).toMatchObject({ status: "sent", http_status: 200 });
    } finally {
      http.stop(true);
    }
  });
});

describe("exchange log", () => {
  test("every token call, API call and callback is one JSON line with route, request and response, secrets redacted", async () => {
    const lines = readFileSync(join(fx.root, "exchanges.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const token = lines.find((l) => l.kind === "token" && l.response.status === 200)!;
    expect(token.route).toBe("/oauth/token");
    expect(token.request.headers.authorization).toBe("Basic [redacted]");
    expect(token.response.body.access_token).toBe("[redacted]");
    const put = lines.find(
      (l) => l.kind === "api" && l.request.method === "PUT" && l.route === "/cob/{txid}" && l.response.status === 201,
    )!;
    expect(Object.keys(put).sort()).toEqual(["at", "duration_ms", "kind", "request", "response", "route"]);
    expect(put.request.path).toMatch(/^\/cob\/[a-zA-Z0-9]{32}$/);
    expect(put.request.headers).toEqual({ "content-type": "application/json", authorization: "Bearer [redacted]" });
    expect(put.request.body.valor).toEqual({ original: "123.45" });
    expect(put.response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(put.response.body.status).toBe("ATIVA");
    const fault = lines.find((l) => l.response.status === 503)!;
    expect(fault.response.headers["content-type"]).toBe("application/problem+json");
    const callback = lines.find((l) => l.kind === "callback")!;
    expect(callback.route).toBe("{webhookUrl}/pix");
    expect(callback.request.url).toBe("https://127.0.0.1:9/hook/pix");
    expect(callback.request.body.pix).toHaveLength(1);
    expect(callback.response.status).toBe(0);
    expect(JSON.stringify(lines)).not.toContain(fx.init.body.client_secret);
    expect(JSON.stringify(lines)).not.toContain(c.token);
    expect(lines.some((l) => String(l.request.path).startsWith("/_sim"))).toBe(false);
  });
});

describe("auto-settle", () => {
  test("with autoSettle a devolução answers EM_PROCESSAMENTO and then settles DEVOLVIDO, with its callback", async () => {
    const other = await startFixture();
    try {
      const rx = await startReceiver(simCa(other));
      await other.restart({ autoSettle: true, callbackCa: [rx.receiverCa] });
      const c2 = new SimClient(other);
      await c2.login();
      await c2.api("PUT", `/webhook/${c2.pixKey}`, { webhookUrl: rx.url });
      const id = txid();
      await c2.putCob(id);
      const e2e = (await c2.control("POST", `/_sim/cob/${id}/pay`)).body.pix.endToEndId;
      await rx.next();
      const put = await c2.api("PUT", `/pix/${e2e}/devolucao/auto1`, { valor: "1.00" });
      expect(put.body.status).toBe("EM_PROCESSAMENTO");
      const cb = await rx.next();
      expect(cb.body.pix[0].devolucoes[0]).toMatchObject({ id: "auto1", status: "DEVOLVIDO" });
      expect((await c2.api("GET", `/pix/${e2e}/devolucao/auto1`)).body.status).toBe("DEVOLVIDO");
      rx.stop();
    } finally {
      await other.cleanup();
    }
  });
});

describe("cofre psp-sim (the process)", () => {
  test("listens on the port it logs, answers over mTLS, writes its exchange log, and stops on SIGTERM with exit 0", async () => {
    const dir = fx.init.dir;
    await fx.sim.stop();
    const log = join(fx.root, "process.jsonl");
    const proc = await startServer(
      [
        "bun",
        join(import.meta.dir, "../../src/main.ts"),
        "psp-sim",
        "--dir",
        dir,
        "--port",
        "0",
        "--exchange-log",
        log,
      ],
      {
        dataDir: fx.root,
        timeoutMs: 20_000,
      },
    );
    try {
      const line = proc.lines().find((l) => l.msg?.startsWith("psp-sim listening"))!;
      expect(line.api_url).toBe(`https://127.0.0.1:${proc.port}/api/v2`);
      const res = await fetch(`https://127.0.0.1:${proc.port}/_sim/state`, {
        tls: { cert: fx.init.body.certificate, key: fx.init.body.private_key, ca: fx.init.body.ca_certificates },
      } as RequestInit);
      expect(res.status).toBe(200);
      const basic = Buffer.from(`${fx.init.body.client_id}:${fx.init.body.client_secret}`).toString("base64");
      const tok = await fetch(`https://127.0.0.1:${proc.port}/oauth/token`, {
        method: "POST",
        headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials",
        tls: { cert: fx.init.body.certificate, key: fx.init.body.private_key, ca: fx.init.body.ca_certificates },
      } as RequestInit);
      expect(tok.status).toBe(200);
    } finally {
      expect(await proc.stop()).toBe(0);
    }
    expect(
      readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).kind),
    ).toEqual(["token"]);
    await fx.restart();
  }, 60_000);
});
