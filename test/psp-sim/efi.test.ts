/**
 * psp-sim's Efí routes over mTLS (src/psp-sim/efi.ts header; extensions.md "Pix send through a
 * PSP: connection type `efi`"): the standard's routes under `/v2`, `PUT /v3/gn/pix/{idEnvio}` drawing
 * on the client's balance, `GET /v2/gn/pix/enviados/id-envio/{idEnvio}` and by e2eId,
 * `GET /v2/gn/saldo`, Efí's errors (`{nome, mensagem}`: 409 id_envio_duplicado, 422
 * pagamento_negado, 400 chave_invalida / valor_invalido), results by rule (homologation bands) and
 * by control route, the `tipo: SOLICITACAO` callbacks with `gnExtras`, faults, and sends kept
 * across a restart.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
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
  await fx.restart({ callbackCa: [rx.receiverCa], sendResults: "manual" });
  c = new SimClient(fx);
  await c.login();
  expect(
    (await c.efi("PUT", `/v2/webhook/${c.pixKey}`, { webhookUrl: rx.url }, { "x-skip-mtls-checking": "true" })).status,
  ).toBe(200);
});
afterAll(async () => {
  rx.stop();
  await fx.cleanup();
});
beforeEach(async () => {
  await c.control("DELETE", "/_sim/faults");
  await c.control("POST", "/_sim/sends/results", { mode: "manual" });
  await c.control("POST", "/_sim/balance", { valor: "1000.00" });
});

let n = 0;
const newId = () => `envio${Date.now().toString(36)}${n++}`;
const CPF = validCpf();
const body = (valor = "12.34", over: Record<string, unknown> = {}) => ({
  valor,
  pagador: { chave: c.pixKey, infoPagador: "Saque" },
  favorecido: { chave: CPF, cpf: CPF },
  ...over,
});
const saldo = async () => (await c.efi("GET", "/v2/gn/saldo")).body.saldo as string;
const SEND_KEYS = ["chave", "e2eId", "favorecido", "gnExtras", "horario", "idEnvio", "pagador", "status", "valor"];

describe("the standard under /v2", () => {
  test("an efi connection's origin serves cob and webhook under /v2", async () => {
    const id = txid();
    const r = await c.efi("PUT", `/v2/cob/${id}`, {
      calendario: { expiracao: 3600 },
      valor: { original: "1.00" },
      chave: c.pixKey,
    });
    expect([r.status, r.body.txid]).toEqual([201, id]);
    expect((await c.efi("GET", `/v2/webhook/${c.pixKey}`)).body.webhookUrl).toBe(rx.url);
  });
});

describe("PUT /v3/gn/pix/{idEnvio}", () => {
  test("answers 201 EM_PROCESSAMENTO with the e2eId, takes the valor from the balance, and the GETs by idEnvio and e2eId show it", async () => {
    const id = newId();
    const r = await c.efi("PUT", `/v3/gn/pix/${id}`, body());
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(["e2eId", "horario", "idEnvio", "status", "valor"]);
    expect(r.body).toMatchObject({ idEnvio: id, valor: "12.34", status: "EM_PROCESSAMENTO" });
    expect(r.body.e2eId).toMatch(/^E09999999\d{12}[a-zA-Z0-9]{11}$/);
    expect(await saldo()).toBe("987.66");
    const byId = await c.efi("GET", `/v2/gn/pix/enviados/id-envio/${id}`);
    expect(byId.status).toBe(200);
    expect(Object.keys(byId.body).sort()).toEqual(SEND_KEYS);
    expect(byId.body).toMatchObject({
      idEnvio: id,
      e2eId: r.body.e2eId,
      status: "EM_PROCESSAMENTO",
      chave: CPF,
      favorecido: { chave: CPF, cpf: CPF },
      gnExtras: { idEnvio: id },
    });
    expect((await c.efi("GET", `/v2/gn/pix/enviados/${r.body.e2eId}`)).body).toEqual(byId.body);
  });

  test("a reused idEnvio is 409 id_envio_duplicado and the balance is drawn once", async () => {
    const id = newId();
    expect((await c.efi("PUT", `/v3/gn/pix/${id}`, body("10.00"))).status).toBe(201);
    const again = await c.efi("PUT", `/v3/gn/pix/${id}`, body("10.00"));
    expect([again.status, again.body.nome]).toEqual([409, "id_envio_duplicado"]);
    expect(await saldo()).toBe("990.00");
  });

  test("a balance below the valor is 422 pagamento_negado and nothing is stored", async () => {
    const id = newId();
    const r = await c.efi("PUT", `/v3/gn/pix/${id}`, body("1000.01"));
    expect([r.status, r.body.nome]).toEqual([422, "pagamento_negado"]);
    expect(r.body.mensagem).toContain("saldo insuficiente");
    expect((await c.efi("GET", `/v2/gn/pix/enviados/id-envio/${id}`)).status).toBe(404);
    expect(await saldo()).toBe("1000.00");
  });

  test("a pagador key of another account is 400 chave_invalida, a bad valor 400 valor_invalido, a favorecido without key or account 400 json_invalido", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [body("1.00", { pagador: { chave: "outra@example.com" } }), "chave_invalida"],
      [body("1,00"), "valor_invalido"],
      [body("1.00", { favorecido: { nome: "x" } }), "json_invalido"],
      [
        body("1.00", {
          favorecido: {
            contaBanco: { nome: "X", cpf: CPF, codigoBanco: "123", agencia: "1", conta: "1", tipoConta: "cacc" },
          },
        }),
        "json_invalido",
      ],
    ];
    for (const [b, nome] of cases) {
      const r = await c.efi("PUT", `/v3/gn/pix/${newId()}`, b);
      expect([r.status, r.body]).toEqual([400, { nome, mensagem: expect.any(String) }]);
    }
  });

  test("a favorecido whose document is blocked is 400 documento_bloqueado, nothing taken from the balance", async () => {
    const blocked = validCpf();
    expect((await c.control("POST", "/_sim/faults/block-document", { document: blocked })).status).toBe(200);
    const r = await c.efi(
      "PUT",
      `/v3/gn/pix/${newId()}`,
      body("1.00", { favorecido: { chave: blocked, cpf: blocked } }),
    );
    expect([r.status, r.body.nome]).toEqual([400, "documento_bloqueado"]);
    expect(await saldo()).toBe("1000.00");
  });

  test("a bank account favorecido (contaBanco) is accepted", async () => {
    const favorecido = {
      contaBanco: {
        nome: "Empresa X",
        cnpj: "11222333000181",
        codigoBanco: "60746948",
        agencia: "1234",
        conta: "123456",
        tipoConta: "cacc",
      },
    };
    const r = await c.efi("PUT", `/v3/gn/pix/${newId()}`, body("1.00", { favorecido }));
    expect(r.status).toBe(201);
  });

  test("an unknown idEnvio is 404 pix_enviado_nao_encontrado; a token without pix.send is 403", async () => {
    const r = await c.efi("GET", `/v2/gn/pix/enviados/id-envio/${newId()}`);
    expect([r.status, r.body.nome]).toEqual([404, "pix_enviado_nao_encontrado"]);
    const narrow = new SimClient(fx);
    expect((await narrow.login(undefined, "grant_type=client_credentials&scope=cob.read")).status).toBe(200);
    expect((await narrow.efi("PUT", `/v3/gn/pix/${newId()}`, body())).status).toBe(403);
  });
});

describe("results by control route", () => {
  test("settle makes it REALIZADO with its liquidação time and calls back the pagador key's webhook with tipo SOLICITACAO and gnExtras.idEnvio", async () => {
    const id = newId();
    const put = await c.efi("PUT", `/v3/gn/pix/${id}`, body("3.00"));
    const r = await c.control("POST", `/_sim/sends/${id}/settle`, { wait_callback: true });
    expect(r.status).toBe(200);
    expect(r.body.send).toMatchObject({ status: "REALIZADO", horario: { liquidacao: expect.any(String) } });
    expect(r.body.callback.status).toBe("sent");
    const cb = rx.received.at(-1)!;
    expect(cb.path).toBe("/hooks/cofre/pix");
    expect(cb.body).toEqual({
      pix: [
        {
          endToEndId: put.body.e2eId,
          chave: c.pixKey,
          tipo: "SOLICITACAO",
          status: "REALIZADO",
          valor: "3.00",
          horario: r.body.send.horario.liquidacao,
          gnExtras: { idEnvio: id },
        },
      ],
    });
    expect(await saldo()).toBe("997.00");
    const twice = await c.control("POST", `/_sim/sends/${id}/settle`, {});
    expect(twice.status).toBe(409);
  });

  test("fail makes it NAO_REALIZADO with gnExtras.erro, gives the valor back, and calls back", async () => {
    const id = newId();
    await c.efi("PUT", `/v3/gn/pix/${id}`, body("7.00"));
    expect(await saldo()).toBe("993.00");
    const r = await c.control("POST", `/_sim/sends/${id}/fail`, {
      codigo: "AC03",
      motivo: "Conta inexistente",
      wait_callback: true,
    });
    expect(r.body.send).toMatchObject({
      status: "NAO_REALIZADO",
      gnExtras: { idEnvio: id, erro: { codigo: "AC03", origem: "psp-sim", motivo: "Conta inexistente" } },
    });
    expect(rx.received.at(-1)!.body.pix[0]).toMatchObject({
      status: "NAO_REALIZADO",
      gnExtras: { idEnvio: id, erro: { codigo: "AC03" } },
    });
    expect(await saldo()).toBe("1000.00");
  });
});

describe("results by rule (Efí's homologation bands)", () => {
  test("0.01-10.00 is paid and 10.01-20.00 refused, each with a callback; above 20.00 is refused at the request", async () => {
    await c.control("POST", "/_sim/sends/results", { mode: "bands" });
    const before = rx.received.length;
    const paid = newId();
    const refused = newId();
    expect((await c.efi("PUT", `/v3/gn/pix/${paid}`, body("10.00"))).status).toBe(201);
    expect((await c.efi("PUT", `/v3/gn/pix/${refused}`, body("10.01"))).status).toBe(201);
    while (rx.received.length < before + 2) await rx.next();
    const statuses = Object.fromEntries(
      rx.received.slice(before).map((r) => [r.body.pix[0].gnExtras.idEnvio, r.body.pix[0].status]),
    );
    expect(statuses).toEqual({ [paid]: "REALIZADO", [refused]: "NAO_REALIZADO" });
    expect((await c.efi("GET", `/v2/gn/pix/enviados/id-envio/${refused}`)).body.gnExtras.erro.codigo).toBe("AC03");
    const big = await c.efi("PUT", `/v3/gn/pix/${newId()}`, body("20.01"));
    expect([big.status, big.body.nome]).toEqual([422, "pagamento_negado"]);
    expect(await saldo()).toBe("990.00");
  });
});

describe("faults", () => {
  test("a 500 after the send took effect, and a late answer after it, leave exactly one send the GET finds", async () => {
    const id = newId();
    await c.control("POST", "/_sim/faults/errors", { status: 500, count: 1, match: "PUT /v3/gn/pix/", after: true });
    const r = await c.efi("PUT", `/v3/gn/pix/${id}`, body("2.00"));
    expect(r.status).toBe(500);
    expect((await c.efi("GET", `/v2/gn/pix/enviados/id-envio/${id}`)).body.status).toBe("EM_PROCESSAMENTO");
    const late = newId();
    await c.control("POST", "/_sim/faults/latency", { ms: 150, count: 1, match: "PUT /v3/gn/pix/", after: true });
    const started = performance.now();
    expect((await c.efi("PUT", `/v3/gn/pix/${late}`, body("2.00"))).status).toBe(201);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(await saldo()).toBe("996.00");
  });

  test("a dropped callback is recorded as dropped; the send is still final for the GET", async () => {
    const id = newId();
    await c.efi("PUT", `/v3/gn/pix/${id}`, body("1.00"));
    await c.control("POST", "/_sim/callbacks/drop", { count: 1 });
    const r = await c.control("POST", `/_sim/sends/${id}/settle`, { wait_callback: true });
    expect(r.body.callback.status).toBe("dropped");
    expect((await c.efi("GET", `/v2/gn/pix/enviados/id-envio/${id}`)).body.status).toBe("REALIZADO");
  });
});

describe("a restart", () => {
  test("keeps sends and balances", async () => {
    const id = newId();
    await c.efi("PUT", `/v3/gn/pix/${id}`, body("5.00"));
    await fx.restart({ callbackCa: [rx.receiverCa], sendResults: "manual" });
    await c.login();
    expect((await c.efi("GET", `/v2/gn/pix/enviados/id-envio/${id}`)).body).toMatchObject({
      idEnvio: id,
      status: "EM_PROCESSAMENTO",
      valor: "5.00",
    });
    expect(await saldo()).toBe("995.00");
    const sends = (await c.control("GET", "/_sim/sends")).body.sends as { idEnvio: string }[];
    expect(sends.some((s) => s.idEnvio === id)).toBe(true);
  });
});
