/**
 * psp-sim `cob` (OpenAPI `/cob/{txid}`): create, replay, revise, remove, read; validation errors
 * as RFC 7807 `Problema` with `violacoes`; the BR Code parsed by an independent oracle (pix-utils).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hasError, parsePix } from "pix-utils";
import { hasValidCrc } from "../../src/pix/brcode";
import { SimClient, startFixture, txid, validCpf, type SimFixture } from "./support";

let fx: SimFixture;
let c: SimClient;
beforeAll(async () => {
  fx = await startFixture();
  c = new SimClient(fx);
  await c.login();
});
afterAll(() => fx.cleanup());

const COB_FIELDS = ["calendario", "chave", "loc", "location", "pixCopiaECola", "revisao", "status", "txid", "valor"];
const cobCount = async () => (await c.control("GET", "/_sim/cobs")).body.cobs.length as number;

describe("PUT /cob/{txid}", () => {
  test("creates an ATIVA cob: 201 CobGerada with revisao 0, loc, and a BR Code that pix-utils parses", async () => {
    const id = txid(35);
    const doc = validCpf();
    const r = await c.putCob(id, { devedor: { cpf: doc, nome: "Maria da Silva" }, solicitacaoPagador: "Pedido 42" });
    expect(r.status).toBe(201);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(Object.keys(r.body).sort()).toEqual([...COB_FIELDS, "devedor", "solicitacaoPagador"].sort());
    expect(r.body.txid).toBe(id);
    expect(r.body.revisao).toBe(0);
    expect(r.body.status).toBe("ATIVA");
    expect(r.body.calendario).toEqual({ criacao: "2026-11-20T12:00:00.000Z", expiracao: 3600 });
    expect(r.body.valor).toEqual({ original: "123.45" });
    expect(r.body.chave).toBe(c.pixKey);
    expect(r.body.devedor).toEqual({ cpf: doc, nome: "Maria da Silva" });
    expect(r.body.location).toMatch(new RegExp(`^127\\.0\\.0\\.1:${fx.sim.port}/qr/v2/[0-9a-f]{32}$`));
    expect(r.body.loc).toEqual({
      id: expect.any(Number),
      location: r.body.location,
      tipoCob: "cob",
      criacao: "2026-11-20T12:00:00.000Z",
      txid: id,
    });
    const code = r.body.pixCopiaECola as string;
    expect(hasValidCrc(code)).toBe(true);
    const parsed = parsePix(code) as any;
    expect(hasError(parsed)).toBe(false);
    expect(parsed.type).toBe("DYNAMIC");
    expect(parsed.url).toBe(r.body.location);
    expect(parsed.merchantName).toBe("Loja Cofre psp-sim");
    expect(parsed.merchantCity).toBe("SAO PAULO");
    // pix-utils leaves the amount of a dynamic code out of its result: read EMV field 54 in place.
    expect(code).toContain("5303986" + "5406123.45" + "5802BR");
  });

  test("calendario without expiracao defaults to 86400 s; modalidadeAlteracao 1 leaves the amount out of the BR Code", async () => {
    const r = await c.putCob(txid(26), { calendario: {}, valor: { original: "10.00", modalidadeAlteracao: 1 } });
    expect(r.status).toBe(201);
    expect(r.body.calendario.expiracao).toBe(86400);
    expect(r.body.valor).toEqual({ original: "10.00", modalidadeAlteracao: 1 });
    expect(hasError(parsePix(r.body.pixCopiaECola))).toBe(false);
    expect(r.body.pixCopiaECola).toContain("5303986" + "5802BR");
  });

  test("a replay with the same body answers the same cob (revisao 0, same loc) and creates no second one", async () => {
    const id = txid();
    const first = await c.putCob(id);
    const before = await cobCount();
    const again = await c.putCob(id);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await cobCount()).toBe(before);
  });

  test("a PUT with other values on an ATIVA cob replaces it: revisao 1, same loc and criacao", async () => {
    const id = txid();
    const first = await c.putCob(id);
    fx.clock.advance(5);
    const next = await c.putCob(id, { valor: { original: "200.00" } });
    expect(next.body.revisao).toBe(1);
    expect(next.body.valor.original).toBe("200.00");
    expect(next.body.loc).toEqual(first.body.loc);
    expect(next.body.calendario.criacao).toBe(first.body.calendario.criacao);
  });

  test("a bad txid is 400 CobOperacaoInvalida naming txid, and creates nothing", async () => {
    const before = await cobCount();
    for (const bad of [txid(25), txid(36), "abcdefghijklmnopqrstuvwxyz-0123"]) {
      const r = await c.putCob(bad);
      expect(r.status).toBe(400);
      expect(r.headers.get("content-type")).toBe("application/problem+json");
      expect(r.body).toEqual({
        type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
        title: "Cobrança inválida.",
        status: 400,
        detail: "O txid não respeita o schema ([a-zA-Z0-9]{26,35}).",
        violacoes: [{ razao: "txid inválido", propriedade: "txid", valor: bad }],
      });
    }
    expect(await cobCount()).toBe(before);
  });

  test("a bad valor.original (format, zero, a number) is 400 with one violation on cob.valor.original", async () => {
    const before = await cobCount();
    for (const [original, razao] of [
      ["12.3", "O campo cob.valor.original não respeita o schema."],
      ["12,30", "O campo cob.valor.original não respeita o schema."],
      [12.3, "O campo cob.valor.original não respeita o schema."],
      ["12345678901.00", "O campo cob.valor.original não respeita o schema."],
      ["0.00", "O campo cob.valor.original é zero."],
    ] as const) {
      const r = await c.putCob(txid(), { valor: { original } });
      expect(r.status).toBe(400);
      expect(r.body.type).toBe("https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida");
      expect(r.body.violacoes).toEqual([
        { razao, propriedade: "cob.valor.original", valor: typeof original === "string" ? original : "12.3" },
      ]);
    }
    expect(await cobCount()).toBe(before);
  });

  test("every violation of one request is listed: missing fields, foreign key, cpf with cnpj, bad expiracao, long solicitacaoPagador", async () => {
    const r = await c.api("PUT", `/cob/${txid()}`, {
      calendario: { expiracao: 0 },
      chave: "someone-else@example.com",
      devedor: { cpf: validCpf(), cnpj: "11222333000181", nome: "X" },
      solicitacaoPagador: "x".repeat(141),
      loc: { id: 1 },
    });
    expect(r.status).toBe(400);
    expect(r.body.violacoes.map((v: any) => v.propriedade)).toEqual([
      "cob.valor",
      "cob.calendario.expiracao",
      "cob.chave",
      "cob.devedor",
      "cob.solicitacaoPagador",
      "cob.loc.id",
    ]);
    expect(r.body.violacoes[2].razao).toBe(
      "O campo cob.chave corresponde a uma conta que não pertence a este usuário recebedor.",
    );
  });

  test("a CPF with wrong check digits and a body that is not JSON are 400", async () => {
    const r = await c.putCob(txid(), { devedor: { cpf: "12345678900", nome: "Fulano" } });
    expect(r.body.violacoes).toEqual([
      { razao: "O campo cob.devedor.cpf não é um CPF válido.", propriedade: "cob.devedor.cpf", valor: "12345678900" },
    ]);
    const nj = await c.api("PUT", `/cob/${txid()}`, "{not json");
    expect(nj.status).toBe(400);
    expect(nj.body.violacoes).toEqual([{ razao: "JSON inválido", propriedade: "body" }]);
  });
});

describe("PATCH and GET /cob/{txid}", () => {
  test("GET answers the CobCompleta as created; an unknown txid is 404 CobNaoEncontrado; a bad one 400 CobConsultaInvalida", async () => {
    const id = txid();
    const created = await c.putCob(id);
    const got = await c.api("GET", `/cob/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const missing = await c.api("GET", `/cob/${txid()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.type).toBe("https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado");
    const bad = await c.api("GET", "/cob/short");
    expect(bad.status).toBe(400);
    expect(bad.body.type).toBe("https://pix.bcb.gov.br/api/v2/error/CobConsultaInvalida");
  });

  test("PATCH revises fields (revisao + 1) and PATCH status REMOVIDA_PELO_USUARIO_RECEBEDOR removes the cob", async () => {
    const id = txid();
    await c.putCob(id);
    const revised = await c.api("PATCH", `/cob/${id}`, {
      solicitacaoPagador: "Nova mensagem",
      calendario: { expiracao: 600 },
    });
    expect(revised.status).toBe(200);
    expect(revised.body.revisao).toBe(1);
    expect(revised.body.solicitacaoPagador).toBe("Nova mensagem");
    expect(revised.body.calendario.expiracao).toBe(600);
    const removed = await c.api("PATCH", `/cob/${id}`, { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });
    expect(removed.status).toBe(200);
    expect(removed.body.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR");
    expect(removed.body.revisao).toBe(2);
    expect((await c.api("GET", `/cob/${id}`)).body.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR");
  });

  test("a removed cob cannot be changed by PATCH or PUT (400, status unchanged) nor paid (409)", async () => {
    const id = txid();
    await c.putCob(id);
    await c.api("PATCH", `/cob/${id}`, { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });
    const patch = await c.api("PATCH", `/cob/${id}`, { solicitacaoPagador: "x" });
    expect(patch.status).toBe(400);
    expect(patch.body.detail).toBe("A cobrança não está ATIVA, e a presente requisição busca alterá-la.");
    const put = await c.putCob(id);
    expect(put.status).toBe(400);
    expect(put.body.detail).toBe(
      "A cobrança já existe, não está no status ATIVA, e a presente requisição busca alterá-la.",
    );
    const pay = await c.control("POST", `/_sim/cob/${id}/pay`);
    expect(pay.status).toBe(409);
    expect(pay.body.type).toBe("urn:psp-sim:error:EstadoInvalido");
    expect((await c.api("GET", `/cob/${id}`)).body.revisao).toBe(1);
  });

  test("removal together with other changes, or another status, is 400 and changes nothing", async () => {
    const id = txid();
    await c.putCob(id);
    const both = await c.api("PATCH", `/cob/${id}`, {
      status: "REMOVIDA_PELO_USUARIO_RECEBEDOR",
      valor: { original: "1.00" },
    });
    expect(both.status).toBe(400);
    expect(both.body.violacoes).toEqual([
      { razao: "A cobrança não pode ser removida juntamente com outras alterações.", propriedade: "cob.status" },
    ]);
    const other = await c.api("PATCH", `/cob/${id}`, { status: "CONCLUIDA" });
    expect(other.body.violacoes[0].propriedade).toBe("cob.status");
    const now = await c.api("GET", `/cob/${id}`);
    expect(now.body.status).toBe("ATIVA");
    expect(now.body.revisao).toBe(0);
  });

  test("the control route removes an ATIVA cob as REMOVIDA_PELO_PSP", async () => {
    const id = txid();
    await c.putCob(id);
    const r = await c.control("POST", `/_sim/cob/${id}/remove`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("REMOVIDA_PELO_PSP");
    expect((await c.api("GET", `/cob/${id}`)).body.status).toBe("REMOVIDA_PELO_PSP");
  });

  test("PATCH of an unknown cob is 404 CobNaoEncontrado", async () => {
    const r = await c.api("PATCH", `/cob/${txid()}`, { solicitacaoPagador: "x" });
    expect(r.status).toBe(404);
    expect(r.body.type).toBe("https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado");
  });
});

describe("operations the simulator does not offer", () => {
  test("POST /cob (txid chosen by the PSP) and unknown paths are 404 NaoEncontrado", async () => {
    for (const [method, path] of [
      ["POST", "/cob"],
      ["POST", `/cob/${txid()}`],
      ["GET", "/cobv/x"],
    ]) {
      const r = await c.api(method!, path!);
      expect(r.status).toBe(404);
      expect(r.body.type).toBe("https://pix.bcb.gov.br/api/v2/error/NaoEncontrado");
    }
  });
});
