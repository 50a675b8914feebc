/**
 * psp-sim payments end to end over mTLS: webhook registration, a cob paid through the control
 * route (any amount, any payer), `GET /pix/{e2eid}` and `GET /pix?inicio&fim` with pagination,
 * devoluções DEVOLVIDO / NAO_REALIZADO, and the `{webhookUrl}/pix` callbacks that an https
 * receiver accepts only with the simulator's client certificate.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createCa, issue } from "../../src/psp-sim/certs";
import {
  type Receiver,
  SimClient,
  simCa,
  startFixture,
  startReceiver,
  txid,
  validCpf,
  type SimFixture,
} from "./support";

let fx: SimFixture;
let c: SimClient;
let rx: Receiver & { receiverCa: string };
beforeAll(async () => {
  fx = await startFixture();
  rx = await startReceiver(simCa(fx));
  await fx.restart({ callbackCa: [rx.receiverCa] });
  c = new SimClient(fx);
  await c.login();
  expect((await c.api("PUT", `/webhook/${c.pixKey}`, { webhookUrl: rx.url })).status).toBe(200);
});
afterAll(async () => {
  rx.stop();
  await fx.cleanup();
});

/** A cob created now and paid by the control route; returns the pay answer. */
async function paid(body: Record<string, unknown> = {}, amount = "50.00") {
  const id = txid();
  expect((await c.putCob(id, { valor: { original: amount } })).status).toBe(201);
  const r = await c.control("POST", `/_sim/cob/${id}/pay`, body);
  expect(r.status).toBe(200);
  return { txid: id, ...r.body } as { txid: string; pix: any; callback: any };
}

describe("webhook registration", () => {
  test("GET /webhook/{chave} answers the WebhookCompleto; GET /webhook lists it", async () => {
    const one = await c.api("GET", `/webhook/${c.pixKey}`);
    expect(one.status).toBe(200);
    expect(Object.keys(one.body).sort()).toEqual(["chave", "cnpj", "criacao", "webhookUrl"]);
    expect(one.body.webhookUrl).toBe(rx.url);
    expect(one.body.cnpj).toBe(fx.init.config.receiver.cnpj);
    const list = await c.api("GET", "/webhook");
    expect(list.body.webhooks).toEqual([one.body]);
    expect(list.body.parametros.paginacao).toEqual({
      paginaAtual: 0,
      itensPorPagina: 100,
      quantidadeDePaginas: 1,
      quantidadeTotalDeItens: 1,
    });
  });

  test("a key that is not the client's, or a URL that is not http(s), is 400 WebhookOperacaoInvalida", async () => {
    const r = await c.api("PUT", "/webhook/outra-chave@example.com", { webhookUrl: "ftp://x.example/hook" });
    expect(r.status).toBe(400);
    expect(r.body.type).toBe("https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida");
    expect(r.body.violacoes.map((v: any) => v.propriedade)).toEqual(["chave", "webhookUrl"]);
  });

  test("DELETE answers 204, then GET and DELETE answer 404 WebhookNaoEncontrado, and a payment sends no callback", async () => {
    const fresh = await startFixture();
    try {
      const c2 = new SimClient(fresh);
      await c2.login();
      await c2.api("PUT", `/webhook/${c2.pixKey}`, { webhookUrl: "https://127.0.0.1:9/never" });
      expect((await c2.api("DELETE", `/webhook/${c2.pixKey}`)).status).toBe(204);
      expect((await c2.api("GET", `/webhook/${c2.pixKey}`)).body.type).toBe(
        "https://pix.bcb.gov.br/api/v2/error/WebhookNaoEncontrado",
      );
      expect((await c2.api("DELETE", `/webhook/${c2.pixKey}`)).status).toBe(404);
      const id = txid();
      await c2.putCob(id);
      const pay = await c2.control("POST", `/_sim/cob/${id}/pay`);
      expect(pay.body.callback).toEqual({ status: "none" });
      expect((await c2.control("GET", "/_sim/callbacks")).body.callbacks).toEqual([]);
    } finally {
      await fresh.cleanup();
    }
  });
});

describe("paying a cob", () => {
  test("the control route pays: cob CONCLUIDA with pix[], GET /pix/{e2eid} answers the Pix, and the callback reaches {webhookUrl}/pix with the simulator's certificate", async () => {
    const doc = validCpf();
    const p = await paid({ pagador: { nome: "João Pagador", cpf: doc }, infoPagador: "obrigado" });
    expect(p.pix.endToEndId).toMatch(/^E99999999202611201200[a-zA-Z0-9]{11}$/);
    expect(p.pix).toEqual({
      endToEndId: p.pix.endToEndId,
      txid: p.txid,
      valor: "50.00",
      componentesValor: { original: { valor: "50.00" } },
      chave: c.pixKey,
      horario: "2026-11-20T12:00:00.000Z",
      infoPagador: "obrigado",
      pagador: { nome: "João Pagador", cpf: doc },
    });
    expect(p.callback).toEqual({ status: "sent", id: expect.any(Number), url: `${rx.url}/pix`, http_status: 200 });
    const cb = await rx.next();
    expect(cb.path).toBe("/hooks/cofre/pix");
    expect(cb.body).toEqual({ pix: [p.pix] });
    const cob = await c.api("GET", `/cob/${p.txid}`);
    expect(cob.body.status).toBe("CONCLUIDA");
    expect(cob.body.pix).toEqual([p.pix]);
    const one = await c.api("GET", `/pix/${p.pix.endToEndId}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(p.pix);
  });

  test("any amount pays (more or less than the cob), and a paid cob cannot be paid again (409, one Pix)", async () => {
    const more = await paid({ valor: "999.99" });
    expect(more.pix.valor).toBe("999.99");
    await rx.next();
    const again = await c.control("POST", `/_sim/cob/${more.txid}/pay`);
    expect(again.status).toBe(409);
    expect((await c.api("GET", `/cob/${more.txid}`)).body.pix).toHaveLength(1);
    const less = await paid({ valor: "0.01", pagador: { nome: "Empresa", cnpj: "11222333000181" } });
    expect(less.pix.pagador).toEqual({ nome: "Empresa", cnpj: "11222333000181" });
    await rx.next();
  });

  test("a bad payer or amount on the control route is 400 and pays nothing", async () => {
    const id = txid();
    await c.putCob(id);
    for (const body of [
      { valor: "1,00" },
      { pagador: { nome: "X", cpf: "11111111111" } },
      { pagador: { nome: "X" } },
      { surprise: 1 },
    ]) {
      const r = await c.control("POST", `/_sim/cob/${id}/pay`, body);
      expect(r.status).toBe(400);
      expect(r.body.type).toBe("urn:psp-sim:error:ControleInvalido");
    }
    expect((await c.api("GET", `/cob/${id}`)).body.status).toBe("ATIVA");
  });

  test("GET /pix/{e2eid} of an unknown Pix is 404 PixNaoEncontrado; a malformed e2eid 400", async () => {
    expect((await c.api("GET", "/pix/E99999999202611201200zzzzzzzzzzz")).body.type).toBe(
      "https://pix.bcb.gov.br/api/v2/error/PixNaoEncontrado",
    );
    expect((await c.api("GET", "/pix/E123")).status).toBe(400);
  });
});

describe("GET /pix?inicio&fim", () => {
  test("lists the Pix received in the window, oldest first, with pagination and filters", async () => {
    fx.clock.advance(86_400);
    await c.login(); // the old token expired with the day
    const from = new Date(fx.clock.nowMs()).toISOString();
    const doc = validCpf();
    const a = await paid({ pagador: { nome: "A", cpf: doc } });
    await rx.next();
    fx.clock.advance(60);
    const b = await paid();
    await rx.next();
    fx.clock.advance(60);
    const cc = await paid();
    await rx.next();
    const to = new Date(fx.clock.nowMs()).toISOString();
    const all = await c.api("GET", `/pix?inicio=${from}&fim=${to}`);
    expect(all.status).toBe(200);
    expect(all.body.pix.map((p: any) => p.endToEndId)).toEqual([a, b, cc].map((x) => x.pix.endToEndId));
    expect(all.body.parametros).toEqual({
      inicio: from,
      fim: to,
      paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 3 },
    });
    const page = await c.api("GET", `/pix?inicio=${from}&fim=${to}&paginacao.itensPorPagina=2&paginacao.paginaAtual=1`);
    expect(page.body.pix.map((p: any) => p.endToEndId)).toEqual([cc.pix.endToEndId]);
    expect(page.body.parametros.paginacao).toEqual({
      paginaAtual: 1,
      itensPorPagina: 2,
      quantidadeDePaginas: 2,
      quantidadeTotalDeItens: 3,
    });
    const byTxid = await c.api("GET", `/pix?inicio=${from}&fim=${to}&txid=${b.txid}`);
    expect(byTxid.body.pix.map((p: any) => p.txid)).toEqual([b.txid]);
    const byCpf = await c.api("GET", `/pix?inicio=${from}&fim=${to}&cpf=${doc}`);
    expect(byCpf.body.pix.map((p: any) => p.endToEndId)).toEqual([a.pix.endToEndId]);
    const before = await c.api(
      "GET",
      `/pix?inicio=2020-01-01T00:00:00Z&fim=${from.replace("12:00:00.000Z", "11:59:59.999Z")}`,
    );
    expect(before.body.pix.map((p: any) => p.endToEndId)).not.toContain(a.pix.endToEndId);
    const empty = await c.api("GET", "/pix?inicio=2020-01-01T00:00:00Z&fim=2020-01-02T00:00:00Z");
    expect(empty.body.pix).toEqual([]);
    expect(empty.body.parametros.paginacao.quantidadeDePaginas).toBe(1);
  });

  test("a missing window, fim before inicio, cpf with cnpj, or itensPorPagina above 1000 is 400 PixConsultaInvalida", async () => {
    for (const [q, prop] of [
      ["fim=2026-11-21T00:00:00Z", "inicio"],
      ["inicio=2026-11-21T00:00:00Z&fim=2026-11-20T00:00:00Z", "fim"],
      ["inicio=2026-11-20&fim=2026-11-21T00:00:00Z", "inicio"],
      ["inicio=2026-11-20T00:00:00Z&fim=2026-11-21T00:00:00Z&cpf=12345678909&cnpj=11222333000181", "cpf"],
      [
        "inicio=2026-11-20T00:00:00Z&fim=2026-11-21T00:00:00Z&paginacao.itensPorPagina=1001",
        "paginacao.itensPorPagina",
      ],
      ["inicio=2026-11-20T00:00:00Z&fim=2026-11-21T00:00:00Z&txIdPresente=yes", "txIdPresente"],
    ]) {
      const r = await c.api("GET", `/pix?${q}`);
      expect(r.status).toBe(400);
      expect(r.body.type).toBe("https://pix.bcb.gov.br/api/v2/error/PixConsultaInvalida");
      expect(r.body.violacoes[0].propriedade).toBe(prop);
    }
  });
});

describe("devolução", () => {
  test("PUT answers 201 EM_PROCESSAMENTO; settle makes it DEVOLVIDO with liquidacao and sends the Pix with its devolucoes", async () => {
    const p = await paid({}, "80.00");
    await rx.next();
    const e2e = p.pix.endToEndId;
    const put = await c.api("PUT", `/pix/${e2e}/devolucao/re0001`, { valor: "30.00", descricao: "troca" });
    expect(put.status).toBe(201);
    expect(put.body).toEqual({
      id: "re0001",
      rtrId: expect.stringMatching(/^D09999999\d{12}[a-zA-Z0-9]{11}$/),
      valor: "30.00",
      natureza: "ORIGINAL",
      descricao: "troca",
      horario: { solicitacao: new Date(fx.clock.nowMs()).toISOString() },
      status: "EM_PROCESSAMENTO",
    });
    const replay = await c.api("PUT", `/pix/${e2e}/devolucao/re0001`, { valor: "30.00", descricao: "troca" });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(put.body);
    fx.clock.advance(3);
    const settle = await c.control("POST", `/_sim/pix/${e2e}/devolucao/re0001/settle`);
    expect(settle.status).toBe(200);
    expect(settle.body.devolucao.status).toBe("DEVOLVIDO");
    expect(settle.body.callback.status).toBe("sent");
    const got = await c.api("GET", `/pix/${e2e}/devolucao/re0001`);
    expect(got.body).toEqual({
      ...put.body,
      status: "DEVOLVIDO",
      horario: { solicitacao: put.body.horario.solicitacao, liquidacao: new Date(fx.clock.nowMs()).toISOString() },
    });
    const cb = await rx.next();
    expect(cb.body.pix).toHaveLength(1);
    expect(cb.body.pix[0].endToEndId).toBe(e2e);
    expect(cb.body.pix[0].devolucoes).toEqual([got.body]);
    expect((await c.api("GET", `/pix/${e2e}`)).body.devolucoes).toEqual([got.body]);
    const twice = await c.control("POST", `/_sim/pix/${e2e}/devolucao/re0001/fail`);
    expect(twice.status).toBe(409);
  });

  test("fail makes it NAO_REALIZADO with motivo, sends the callback, and frees the amount for another devolução", async () => {
    const p = await paid({}, "20.00");
    await rx.next();
    const e2e = p.pix.endToEndId;
    expect((await c.api("PUT", `/pix/${e2e}/devolucao/d1`, { valor: "20.00" })).status).toBe(201);
    const over = await c.api("PUT", `/pix/${e2e}/devolucao/d2`, { valor: "0.01" });
    expect(over.status).toBe(400);
    expect(over.body.detail).toBe(
      "A presente requisição de devolução, em conjunto com as demais prévias devoluções, excederia o valor do pix originário.",
    );
    const fail = await c.control("POST", `/_sim/pix/${e2e}/devolucao/d1/fail`, {
      motivo: "Conta do pagador encerrada",
    });
    expect(fail.body.devolucao).toMatchObject({ status: "NAO_REALIZADO", motivo: "Conta do pagador encerrada" });
    expect(fail.body.devolucao.horario.liquidacao).toBeUndefined();
    const cb = await rx.next();
    expect(cb.body.pix[0].devolucoes[0]).toMatchObject({
      id: "d1",
      status: "NAO_REALIZADO",
      motivo: "Conta do pagador encerrada",
    });
    expect((await c.api("PUT", `/pix/${e2e}/devolucao/d2`, { valor: "20.00" })).status).toBe(201);
  });

  test("bad devoluções are 400 PixDevolucaoInvalida: id reused with another body, bad valor, RETIRADA, bad id; unknown ones 404", async () => {
    const p = await paid({}, "10.00");
    await rx.next();
    const e2e = p.pix.endToEndId;
    await c.api("PUT", `/pix/${e2e}/devolucao/x1`, { valor: "1.00" });
    const reuse = await c.api("PUT", `/pix/${e2e}/devolucao/x1`, { valor: "2.00" });
    expect(reuse.body.violacoes).toEqual([{ razao: "id já utilizado", propriedade: "id", valor: "x1" }]);
    expect((await c.api("PUT", `/pix/${e2e}/devolucao/x2`, { valor: "1" })).body.violacoes[0].propriedade).toBe(
      "devolucao.valor",
    );
    expect(
      (await c.api("PUT", `/pix/${e2e}/devolucao/x3`, { valor: "1.00", natureza: "RETIRADA" })).body.violacoes[0]
        .propriedade,
    ).toBe("devolucao.natureza");
    const badId = await c.api("PUT", `/pix/${e2e}/devolucao/re_x`, { valor: "1.00" });
    expect(badId.status).toBe(400);
    expect(badId.body.type).toBe("https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida");
    expect((await c.api("GET", `/pix/${e2e}/devolucao/nope`)).body.type).toBe(
      "https://pix.bcb.gov.br/api/v2/error/PixDevolucaoNaoEncontrada",
    );
    expect((await c.api("PUT", "/pix/E99999999202611201200zzzzzzzzzzz/devolucao/x1", { valor: "1.00" })).status).toBe(
      404,
    );
    expect((await c.api("GET", `/pix/${e2e}`)).body.devolucoes.map((d: any) => d.id)).toEqual(["x1"]);
  });
});

describe("callbacks", () => {
  test("the control route drops the next N callbacks: recorded as dropped, nothing reaches the receiver, then they flow again", async () => {
    const before = rx.received.length;
    expect((await c.control("POST", "/_sim/callbacks/drop", { count: 2 })).body.drop_callbacks).toBe(2);
    const one = await paid();
    const two = await paid();
    expect(one.callback.status).toBe("dropped");
    expect(two.callback.status).toBe("dropped");
    expect(rx.received.length).toBe(before);
    const three = await paid();
    expect(three.callback.status).toBe("sent");
    expect((await rx.next()).body.pix[0].txid).toBe(three.txid);
    const log = (await c.control("GET", "/_sim/callbacks")).body.callbacks;
    expect(log.slice(-3).map((x: any) => x.status)).toEqual(["dropped", "dropped", "sent"]);
  });

  test("a plain-http webhook URL (Cofre on loopback) gets the callback at the URL plus /pix", async () => {
    const got: { path: string; body: any }[] = [];
    const http = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        got.push({ path: new URL(req.url).pathname, body: await req.json() });
        return new Response(null, { status: 200 });
      },
    });
    try {
      await c.api("PUT", `/webhook/${c.pixKey}`, {
        webhookUrl: `http://127.0.0.1:${http.port}/v1/provider-webhooks/pix/conn_1`,
      });
      const p = await paid();
      expect(p.callback).toMatchObject({ status: "sent", http_status: 200 });
      expect(got).toEqual([{ path: "/v1/provider-webhooks/pix/conn_1/pix", body: { pix: [p.pix] } }]);
    } finally {
      http.stop(true);
      await c.api("PUT", `/webhook/${c.pixKey}`, { webhookUrl: rx.url });
    }
  });

  test("a receiver answering 500 leaves the attempt failed with its status", async () => {
    rx.answer = 500;
    try {
      const p = await paid();
      expect(p.callback).toMatchObject({ status: "failed", http_status: 500 });
      await rx.next();
    } finally {
      rx.answer = 200;
    }
  });

  test("a receiver that demands a certificate from its own CA refuses the simulator: the attempt is failed, the payment stands", async () => {
    const ca = await createCa("strict receiver CA");
    const cert = await issue(ca, "localhost", "server", ["127.0.0.1"]);
    const strict = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      tls: { cert: cert.cert, key: cert.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true },
      fetch: () => new Response("ok"),
    });
    try {
      await fx.restart({ callbackCa: [rx.receiverCa, ca.cert] });
      await c.api("PUT", `/webhook/${c.pixKey}`, { webhookUrl: `https://127.0.0.1:${strict.port}/h` });
      const p = await paid();
      expect(p.callback.status).toBe("failed");
      expect(p.callback.http_status).toBeUndefined();
      expect((await c.api("GET", `/cob/${p.txid}`)).body.status).toBe("CONCLUIDA");
    } finally {
      strict.stop(true);
      await c.api("PUT", `/webhook/${c.pixKey}`, { webhookUrl: rx.url });
    }
  });
});
