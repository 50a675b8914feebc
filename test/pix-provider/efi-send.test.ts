/**
 * The `efi` flavour of the bcb_pix_v2 adapter with Efí scripted through the injected fetch
 * (src/providers/bcb-pix-v2/send.ts and cashout.ts headers; extensions.md "Pix send through a
 * PSP: connection type `efi`", "Refunds by cashout"): the send body, the status table, a doubtful
 * answer (timeout after Efí accepted, 5xx, 409 id_envio_duplicado) resolved with the GET by
 * idEnvio and never a second PUT, refusals, a resumed send asking first, the callback's
 * `gnExtras.idEnvio` entries read as send hints, and cashout refunds.
 */
import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/lib/clock";
import { BcbPixClient } from "../../src/providers/bcb-pix-v2/client";
import { createBcbPixProvider } from "../../src/providers/bcb-pix-v2/provider";
import { sendOutcomeOf } from "../../src/providers/bcb-pix-v2/send";
import type { ProviderContext, RefundRecord, SendRequest, TransactionRow } from "../../src/domain/providers/types";

const START = "2026-11-20T12:00:00.000Z";
const T0 = Date.parse(START);
const ORIGIN = "https://efi.example.com";
const E2E = "E09089356202611201200abcdefghijk";
const SEND_ID = "019b0000000070008000000000000abc";
const PAYER_CPF = "52998224725";
const PIX_KEY = "5f84a4c5-c5cb-4599-9f13-7eb4d419dacc";

interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: any;
}

type Answer = Response | "timeout";

/**
 * An efi provider whose Efí answers each API call with `answer(call)` (the token call always succeeds); records the
 * calls.
 */
function scripted(answer: (c: Call, n: number) => Answer, flavour: "efi" | "bcb_pix_v2" = "efi") {
  const clock = new ManualClock(START);
  const calls: Call[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname === "/oauth/token")
      return Response.json({ access_token: "t", token_type: "Bearer", expires_in: 3600 });
    const c = {
      method: init?.method ?? "GET",
      path: url.pathname,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: typeof init?.body === "string" ? JSON.parse(init.body) : null,
    };
    calls.push(c);
    const a = answer(c, calls.length);
    if (a === "timeout")
      // Efí took the request and never answered in time: the client's timer aborts.
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    return a;
  };
  const client = new BcbPixClient(
    {
      id: "ppc_efi",
      type: flavour,
      apiUrl: ORIGIN,
      tokenUrl: `${ORIGIN}/oauth/token`,
      clientId: "c",
      clientSecret: "s",
      certificate: "",
      privateKey: "",
      caCertificates: null,
      scope: null,
      tokenAuth: "basic",
      apiQuery: null,
    },
    { fetch, clock, connectTimeoutMs: 30, totalTimeoutMs: 60 },
  );
  const provider = createBcbPixProvider({
    connectionId: "ppc_efi",
    flavour,
    pixKey: PIX_KEY,
    client: async () => client,
  });
  const ctx = { clock } as unknown as ProviderContext;
  return { provider, ctx, clock, calls };
}

const sendReq = (over: Partial<SendRequest> = {}): SendRequest => ({
  sendId: SEND_ID,
  amount: 1234,
  destination: { type: "pix_key", pixKey: PAYER_CPF, pixKeyType: "cpf", taxId: PAYER_CPF, name: "Fulana" },
  description: "Saque semanal",
  resumed: false,
  requestedAt: T0,
  ...over,
});

const efiSend = (status: string, extra: Record<string, unknown> = {}, http = 200) =>
  Response.json(
    { idEnvio: SEND_ID, e2eId: E2E, valor: "12.34", horario: { solicitacao: START }, status, ...extra },
    { status: http },
  );
const efiError = (status: number, nome: string, mensagem = "m") => Response.json({ nome, mensagem }, { status });
const PUT_PATH = `/v3/gn/pix/${SEND_ID}`;
const GET_PATH = `/v2/gn/pix/enviados/id-envio/${SEND_ID}`;
const paths = (calls: Call[]) => calls.map((c) => `${c.method} ${c.path}`);

describe("the send request", () => {
  test("is one PUT /v3/gn/pix/{idEnvio} at the origin with valor in reais, the connection's key as pagador and the key with its CPF as favorecido", async () => {
    const s = scripted(() => efiSend("EM_PROCESSAMENTO", {}, 201));
    const o = await s.provider.send!(s.ctx, sendReq());
    expect(paths(s.calls)).toEqual([`PUT ${PUT_PATH}`]);
    expect(s.calls[0]!.body).toEqual({
      valor: "12.34",
      pagador: { chave: PIX_KEY, infoPagador: "Saque semanal" },
      favorecido: { chave: PAYER_CPF, cpf: PAYER_CPF },
    });
    expect(o).toEqual({ status: "processing", endToEndId: E2E, checkAt: T0 + 15_000 });
  });

  test("a bank account goes as contaBanco with the ISPB, a savings account as svgs, and no description leaves infoPagador out", async () => {
    const s = scripted(() => efiSend("EM_PROCESSAMENTO", {}, 201));
    const destination = {
      type: "bank_account",
      name: "Empresa X",
      taxId: "11222333000181",
      ispb: "60746948",
      branch: "1234",
      account: "123456",
      accountType: "savings",
    } as const;
    await s.provider.send!(s.ctx, sendReq({ destination, description: null, amount: 5 }));
    expect(s.calls[0]!.body).toEqual({
      valor: "0.05",
      pagador: { chave: PIX_KEY },
      favorecido: {
        contaBanco: {
          nome: "Empresa X",
          cnpj: "11222333000181",
          codigoBanco: "60746948",
          agencia: "1234",
          conta: "123456",
          tipoConta: "svgs",
        },
      },
    });
  });

  test("a key without a known document goes alone, and infoPagador is cut at 140 characters", async () => {
    const s = scripted(() => efiSend("EM_PROCESSAMENTO", {}, 201));
    await s.provider.send!(
      s.ctx,
      sendReq({
        destination: { type: "pix_key", pixKey: "a@b.com", pixKeyType: "email", taxId: null, name: null },
        description: "x".repeat(200),
      }),
    );
    expect(s.calls[0]!.body.favorecido).toEqual({ chave: "a@b.com" });
    expect(s.calls[0]!.body.pagador.infoPagador).toHaveLength(140);
  });
});

describe("one send at a time per connection", () => {
  test("a second send waits until Efí answered the first (Efí's advice); status queries do not wait", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // Efí answers the first PUT only once released.
    const h = scripted((c) =>
      c.method === "PUT" && c.path === PUT_PATH
        ? (held.then(() => efiSend("EM_PROCESSAMENTO", {}, 201)) as unknown as Response)
        : efiSend("EM_PROCESSAMENTO", {}, 201),
    );
    const a = h.provider.send!(h.ctx, sendReq());
    const b = h.provider.send!(h.ctx, sendReq({ sendId: "other2" }));
    const q = await h.provider.sendStatus!(h.ctx, sendReq({ sendId: "other3" }));
    expect(q.status).toBe("processing");
    expect(paths(h.calls)).toEqual([`PUT ${PUT_PATH}`, "GET /v2/gn/pix/enviados/id-envio/other3"]);
    release();
    await Promise.all([a, b]);
    expect(paths(h.calls)).toEqual([
      `PUT ${PUT_PATH}`,
      "GET /v2/gn/pix/enviados/id-envio/other3",
      "PUT /v3/gn/pix/other2",
    ]);
  });
});

describe("status table of a send", () => {
  test("EM_PROCESSAMENTO is processing with the next check, REALIZADO paid with the end-to-end id and its liquidação time", () => {
    expect(sendOutcomeOf({ status: "EM_PROCESSAMENTO", e2eId: E2E }, T0, T0 + 20_000)).toEqual({
      status: "processing",
      endToEndId: E2E,
      checkAt: T0 + 75_000,
    });
    expect(
      sendOutcomeOf(
        { status: "REALIZADO", endToEndId: E2E, horario: { liquidacao: "2026-11-20T12:00:05.000Z" } },
        T0,
        T0,
      ),
    ).toEqual({ status: "paid", endToEndId: E2E, paidAt: T0 + 5000 });
  });

  test("NAO_REALIZADO is rejected with gnExtras.erro.codigo and its motivo, or NAO_REALIZADO without one", () => {
    expect(
      sendOutcomeOf(
        { status: "NAO_REALIZADO", gnExtras: { erro: { codigo: "AC03", motivo: "Conta inexistente" } } },
        T0,
        T0,
      ),
    ).toEqual({ status: "rejected", code: "AC03", message: "Conta inexistente" });
    expect(sendOutcomeOf({ status: "NAO_REALIZADO" }, T0, T0)).toMatchObject({
      status: "rejected",
      code: "NAO_REALIZADO",
    });
  });

  test("an unknown or missing status changes nothing (invalid)", () => {
    for (const a of [{ status: "CONCLUIDA" }, {}, null])
      expect(sendOutcomeOf(a, T0, T0)).toMatchObject({ status: "invalid", code: "unknown_status" });
  });
});

describe("a doubtful answer is resolved with the GET by idEnvio, never a second PUT", () => {
  test("a timeout after Efí accepted the send: one PUT, then the GET finds it in progress", async () => {
    const s = scripted((c) => (c.method === "PUT" ? "timeout" : efiSend("EM_PROCESSAMENTO")));
    const o = await s.provider.send!(s.ctx, sendReq());
    expect(paths(s.calls)).toEqual([`PUT ${PUT_PATH}`, `GET ${GET_PATH}`]);
    expect(o).toMatchObject({ status: "processing", endToEndId: E2E });
  });

  test("a 500 whose send the GET does not find yet is retryable (the next try is resumed), still one PUT", async () => {
    const s = scripted((c) =>
      c.method === "PUT" ? efiError(500, "erro_aplicacao") : efiError(404, "pix_enviado_nao_encontrado"),
    );
    const o = await s.provider.send!(s.ctx, sendReq());
    expect(paths(s.calls)).toEqual([`PUT ${PUT_PATH}`, `GET ${GET_PATH}`]);
    expect(o).toMatchObject({ status: "retryable", code: "erro_aplicacao" });
  });

  test("409 id_envio_duplicado: the GET with our valor decides (here REALIZADO -> paid)", async () => {
    const s = scripted((c) => (c.method === "PUT" ? efiError(409, "id_envio_duplicado") : efiSend("REALIZADO")));
    expect(await s.provider.send!(s.ctx, sendReq())).toEqual({ status: "paid", endToEndId: E2E });
    expect(paths(s.calls)).toEqual([`PUT ${PUT_PATH}`, `GET ${GET_PATH}`]);
  });

  test("409 whose send holds another valor decides nothing (retryable), never paid or failed", async () => {
    const s = scripted((c) =>
      c.method === "PUT" ? efiError(409, "id_envio_duplicado") : efiSend("REALIZADO", { valor: "99.99" }),
    );
    expect(await s.provider.send!(s.ctx, sendReq())).toMatchObject({ status: "retryable", code: "id_envio_duplicado" });
  });
});

describe("refusals", () => {
  test("400 documento_bloqueado, chave_invalida, valor_invalido and 422 pagamento_negado are rejected with Efí's error name, without a GET", async () => {
    for (const [status, nome] of [
      [400, "documento_bloqueado"],
      [400, "chave_invalida"],
      [400, "valor_invalido"],
      [422, "pagamento_negado"],
    ] as const) {
      const s = scripted(() => efiError(status, nome, "Saldo insuficiente"));
      const o = await s.provider.send!(s.ctx, sendReq());
      expect(o).toMatchObject({ status: "rejected", code: nome });
      expect((o as { message: string }).message).toContain("Saldo insuficiente");
      expect(paths(s.calls)).toEqual([`PUT ${PUT_PATH}`]);
    }
  });

  test("401 even with a fresh token is auth_failed", async () => {
    const s = scripted(() => new Response("", { status: 401 }));
    expect(await s.provider.send!(s.ctx, sendReq())).toMatchObject({ status: "auth_failed" });
  });
});

describe("a resumed send asks first", () => {
  test("found at Efí: no PUT, its status", async () => {
    const s = scripted(() => efiSend("EM_PROCESSAMENTO"));
    expect(await s.provider.send!(s.ctx, sendReq({ resumed: true }))).toMatchObject({ status: "processing" });
    expect(paths(s.calls)).toEqual([`GET ${GET_PATH}`]);
  });

  test("404 (absent): it is sent, once", async () => {
    const s = scripted((c) =>
      c.method === "GET" ? efiError(404, "pix_enviado_nao_encontrado") : efiSend("EM_PROCESSAMENTO", {}, 201),
    );
    expect(await s.provider.send!(s.ctx, sendReq({ resumed: true }))).toMatchObject({ status: "processing" });
    expect(paths(s.calls)).toEqual([`GET ${GET_PATH}`, `PUT ${PUT_PATH}`]);
  });

  test("a 503 on the GET sends nothing (retryable)", async () => {
    const s = scripted(() => efiError(503, "servico_indisponivel"));
    expect(await s.provider.send!(s.ctx, sendReq({ resumed: true }))).toMatchObject({ status: "retryable" });
    expect(paths(s.calls)).toEqual([`GET ${GET_PATH}`]);
  });
});

describe("sendStatus", () => {
  test("GET by idEnvio: 404 is absent, an answer goes through the table", async () => {
    const absent = scripted(() => efiError(404, "pix_enviado_nao_encontrado"));
    expect(await absent.provider.sendStatus!(absent.ctx, sendReq())).toEqual({ status: "absent" });
    const failed = scripted(() =>
      efiSend("NAO_REALIZADO", {
        gnExtras: { idEnvio: SEND_ID, erro: { codigo: "AM04", motivo: "Saldo insuficiente" } },
      }),
    );
    expect(await failed.provider.sendStatus!(failed.ctx, sendReq())).toEqual({
      status: "rejected",
      code: "AM04",
      message: "Saldo insuficiente",
    });
    expect(paths(failed.calls)).toEqual([`GET ${GET_PATH}`]);
  });
});

describe("the flavours", () => {
  test("efi exposes its connection id and the send flows, and puts /v2 before the standard's routes", async () => {
    const s = scripted(() => Response.json({ status: "ATIVA", calendario: { criacao: START, expiracao: 3600 } }));
    expect([s.provider.name, s.provider.connectionId, typeof s.provider.send, typeof s.provider.sendStatus]).toEqual([
      "efi",
      "ppc_efi",
      "function",
      "function",
    ]);
    const transaction = {
      id: "t1",
      pixTxid: "a".repeat(32),
      createdAt: T0,
      expiresAt: T0 + 3_600_000,
    } as TransactionRow;
    await s.provider.queryStatus(s.ctx, { transaction });
    expect(paths(s.calls)).toEqual([`GET /v2/cob/${"a".repeat(32)}`]);
  });

  test("bcb_pix_v2 has no send flow", () => {
    const s = scripted(() => efiSend("EM_PROCESSAMENTO"), "bcb_pix_v2");
    expect([s.provider.name, s.provider.connectionId, s.provider.send, s.provider.sendStatus]).toEqual([
      "bcb_pix_v2",
      "ppc_efi",
      undefined,
      undefined,
    ]);
  });
});

describe("a callback's entries about Pix we sent", () => {
  test("entries with gnExtras.idEnvio are send hints (sendIds), never received payments; a received Pix stays an item", () => {
    const s = scripted(() => efiSend("EM_PROCESSAMENTO"));
    const body = {
      pix: [
        {
          endToEndId: E2E,
          chave: PIX_KEY,
          tipo: "SOLICITACAO",
          status: "REALIZADO",
          valor: "12.34",
          horario: START,
          gnExtras: { idEnvio: SEND_ID },
        },
        {
          endToEndId: E2E.replace("abc", "xyz"),
          chave: PIX_KEY,
          tipo: "SOLICITACAO",
          status: "NAO_REALIZADO",
          valor: "1.00",
          horario: START,
          gnExtras: { idEnvio: "other1", erro: { codigo: "AC03" } },
        },
        { endToEndId: E2E.replace("abc", "zzz"), txid: "b".repeat(32), valor: "5.00", horario: START },
        { endToEndId: "Eforged", gnExtras: { idEnvio: "not valid!" } },
      ],
    };
    expect(s.provider.parseNotification(s.ctx, { body })).toEqual({
      status: "parsed",
      items: [
        { ref: { txid: "b".repeat(32), endToEndId: E2E.replace("abc", "zzz") } },
        { ref: { endToEndId: "Eforged" } },
      ],
      sendIds: [SEND_ID, "other1"],
    });
  });
});

describe("cashout refunds", () => {
  const REFUND_ID = `re_${SEND_ID}`;
  const tx = (over: Partial<TransactionRow> = {}) =>
    ({
      id: "t1",
      endToEndId: E2E,
      amount: 5000,
      createdAt: T0,
      expectedPayerTaxId: null,
      customerDocument: null,
      customerName: null,
      ...over,
    }) as TransactionRow;
  const plan = (
    s: ReturnType<typeof scripted>,
    over: Record<string, unknown> = {},
    t = tx({ customerDocument: "529.982.247-25" }),
  ) => s.provider.planRefund(s.ctx, { transaction: t, refundId: REFUND_ID, method: "PIX", ...over });

  test("no strategy or cashout is a cashout whose id (idEnvio) is the refund id without re_; devolution stays a devolução", () => {
    const s = scripted(() => efiSend("EM_PROCESSAMENTO"));
    for (const strategy of [undefined, "cashout"] as const)
      expect(plan(s, { strategy })).toEqual({
        status: "pending",
        checkAt: T0,
        strategy: "cashout",
        providerRefundId: SEND_ID,
      });
    expect(plan(s, { strategy: "devolution" })).toEqual({
      status: "pending",
      checkAt: T0,
      strategy: "devolution",
      providerRefundId: SEND_ID,
    });
  });

  test("a destinationKey that is no Pix key, or no key and no payer document, is invalid on destinationKey", () => {
    const s = scripted(() => efiSend("EM_PROCESSAMENTO"));
    for (const key of ["12345678900", "not a key", "+1555123456", "11999998888"])
      expect(plan(s, { destinationKey: key })).toMatchObject({
        status: "invalid",
        code: "invalid_pix_key",
        param: "destinationKey",
      });
    expect(plan(s, {}, tx())).toMatchObject({ status: "invalid", code: "no_destination", param: "destinationKey" });
    for (const key of [PAYER_CPF, "11222333000181", "pagador@example.com", "+5511999998888", PIX_KEY])
      expect(plan(s, { destinationKey: key }, tx())).toMatchObject({ status: "pending", strategy: "cashout" });
  });

  test("the refund is a send to the payer's CPF as a key; in progress, then queried by idEnvio; NAO_REALIZADO fails it", async () => {
    const s = scripted((c) =>
      c.method === "PUT"
        ? efiSend("EM_PROCESSAMENTO", { valor: "20.00" }, 201)
        : efiSend("NAO_REALIZADO", {
            valor: "20.00",
            gnExtras: { idEnvio: SEND_ID, erro: { codigo: "AC03", motivo: "Conta inexistente" } },
          }),
    );
    const refund = {
      id: REFUND_ID,
      providerRefundId: SEND_ID,
      strategy: "cashout",
      amount: 2000,
      reason: "arrependimento",
      destinationKey: null,
      createdAt: T0,
      status: "PENDING",
    } as RefundRecord;
    const transaction = tx({ expectedPayerTaxId: PAYER_CPF, customerName: "Fulana" });
    expect(await s.provider.refund(s.ctx, { refund, transaction })).toEqual({
      status: "pending",
      inProgress: true,
      checkAt: T0 + 15_000,
    });
    expect(s.calls[0]!.body).toEqual({
      valor: "20.00",
      pagador: { chave: PIX_KEY, infoPagador: "arrependimento" },
      favorecido: { chave: PAYER_CPF, cpf: PAYER_CPF },
    });
    expect(await s.provider.refundStatus(s.ctx, { refund: { ...refund, status: "IN_PROGRESS" }, transaction })).toEqual(
      { status: "rejected", code: "AC03", message: "Conta inexistente" },
    );
    expect(paths(s.calls)).toEqual([`PUT ${PUT_PATH}`, `GET ${GET_PATH}`]);
  });

  test("a destinationKey is the favorecido; REALIZADO settles the refund", async () => {
    const s = scripted(() => efiSend("REALIZADO", { valor: "20.00" }, 201));
    const refund = {
      id: REFUND_ID,
      providerRefundId: SEND_ID,
      strategy: "cashout",
      amount: 2000,
      reason: null,
      destinationKey: "pagador@example.com",
      createdAt: T0,
      status: "PENDING",
    } as RefundRecord;
    expect(await s.provider.refund(s.ctx, { refund, transaction: tx() })).toEqual({ status: "settled" });
    expect(s.calls[0]!.body.favorecido).toEqual({ chave: "pagador@example.com" });
  });

  test("through bcb_pix_v2 a cashout is still not supported", () => {
    const s = scripted(() => efiSend("EM_PROCESSAMENTO"), "bcb_pix_v2");
    expect(plan(s, { strategy: "cashout" })).toMatchObject({ status: "not_supported", code: "cashout_not_available" });
    expect(plan(s)).toMatchObject({ status: "pending", strategy: "devolution" });
  });
});
