/**
 * The bcb_pix_v2 devolução status table and failure mapping (src/providers/bcb-pix-v2/devolucao.ts
 * header), with a PSP scripted through the injected fetch: the refund plan (no cashout through the
 * standard), `PUT` and `GET /pix/{e2eid}/devolucao/{id}`, a replayed id resolved with a GET, the
 * return of a whole Pix (natureza ORIGINAL), and the callback's `devolucoes` read as hints.
 */
import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/lib/clock";
import { BcbPixClient } from "../../src/providers/bcb-pix-v2/client";
import { devolucaoOutcome, nextDevolucaoCheckAt } from "../../src/providers/bcb-pix-v2/devolucao";
import { createBcbPixProvider } from "../../src/providers/bcb-pix-v2/provider";
import type { ProviderContext, RefundRecord, TransactionRow } from "../../src/domain/providers/types";

const START = "2026-11-20T12:00:00.000Z";
const T0 = Date.parse(START);
const E2E = "E12345678202611201200abcdefghijk";
const REFUND_ID = "re_019b0000000070008000000000000001";
const DEV_ID = REFUND_ID.slice(3);

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/**
 * A provider whose PSP answers each API call with `answer(call)` (the token call always succeeds); records the calls.
 */
function scripted(answer: (c: Call) => Response) {
  const clock = new ManualClock(START);
  const calls: Call[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname.endsWith("/token"))
      return Response.json({ access_token: "t", token_type: "Bearer", expires_in: 3600 });
    const c = {
      method: init?.method ?? "GET",
      path: url.pathname.replace("/v2", ""),
      body: typeof init?.body === "string" ? JSON.parse(init.body) : null,
    };
    calls.push(c);
    return answer(c);
  };
  const client = new BcbPixClient(
    {
      id: "ppc_x",
      apiUrl: "https://psp.example.com/v2",
      tokenUrl: "https://psp.example.com/token",
      clientId: "c",
      clientSecret: "s",
      certificate: "",
      privateKey: "",
      caCertificates: null,
      scope: null,
      tokenAuth: "basic",
      apiQuery: null,
    },
    { fetch, clock },
  );
  const provider = createBcbPixProvider({ connectionId: "ppc_x", pixKey: "key", client: async () => client });
  const ctx = { clock } as unknown as ProviderContext;
  const transaction = { id: "t1", endToEndId: E2E, amount: 5000, createdAt: T0 } as TransactionRow;
  const refund = {
    id: REFUND_ID,
    providerRefundId: DEV_ID,
    amount: 1234,
    createdAt: T0,
    status: "PENDING",
  } as RefundRecord;
  return { provider, ctx, clock, calls, transaction, refund };
}

const devolucao = (status: string, extra: Record<string, unknown> = {}) =>
  Response.json(
    {
      id: DEV_ID,
      rtrId: "D12345678202611201200abcdefghijk",
      valor: "12.34",
      natureza: "ORIGINAL",
      horario: { solicitacao: START },
      status,
      ...extra,
    },
    { status: 201 },
  );
const problem = (status: number, name: string) =>
  Response.json({ type: `https://pix.bcb.gov.br/api/v2/error/${name}`, title: name, status, detail: "d" }, { status });

describe("status table of a devolução", () => {
  test("EM_PROCESSAMENTO is in progress with the next check, DEVOLVIDO settled, NAO_REALIZADO rejected with the motivo", () => {
    expect(devolucaoOutcome({ status: "EM_PROCESSAMENTO" }, T0, T0)).toEqual({
      status: "pending",
      inProgress: true,
      checkAt: T0 + 15_000,
    });
    expect(devolucaoOutcome({ status: "DEVOLVIDO" }, T0, T0)).toEqual({ status: "settled" });
    expect(devolucaoOutcome({ status: "NAO_REALIZADO", motivo: "Conta encerrada" }, T0, T0)).toEqual({
      status: "rejected",
      code: "NAO_REALIZADO",
      message: "Conta encerrada",
    });
    expect(devolucaoOutcome({ status: "NAO_REALIZADO" }, T0, T0)).toMatchObject({
      status: "rejected",
      code: "NAO_REALIZADO",
    });
  });

  test("an unknown or missing status changes nothing (invalid)", () => {
    for (const d of [{ status: "CONCLUIDA" }, {}, null])
      expect(devolucaoOutcome(d, T0, T0)).toEqual({
        status: "invalid",
        code: "unknown_status",
        message: "The PSP answered an unknown devolução status.",
      });
  });

  test("checks back off from the request: 15 s, 1 min, 5 min after it, then every 15 min", () => {
    const at = (s: number) => nextDevolucaoCheckAt(T0, T0 + s * 1000);
    expect(
      [at(0), at(14), at(15), at(74), at(75), at(374), at(375), at(376), at(1275)].map((t) => (t - T0) / 1000),
    ).toEqual([15, 15, 75, 75, 375, 375, 1275, 1275, 2175]);
  });
});

describe("the refund plan", () => {
  test("a refund without strategy (or devolution) is a devolução whose id is the refund id without re_", () => {
    const s = scripted(() => devolucao("EM_PROCESSAMENTO"));
    for (const strategy of [undefined, "devolution"] as const)
      expect(
        s.provider.planRefund(s.ctx, { transaction: s.transaction, refundId: REFUND_ID, method: "PIX", strategy }),
      ).toEqual({
        status: "pending",
        checkAt: T0,
        strategy: "devolution",
        providerRefundId: DEV_ID,
      });
    expect(DEV_ID).toMatch(/^[a-zA-Z0-9]{1,35}$/);
  });

  test("cashout or a destination key is not supported: the standard has no payment initiation", () => {
    const s = scripted(() => devolucao("EM_PROCESSAMENTO"));
    for (const extra of [{ strategy: "cashout" as const }, { destinationKey: "a@b.c" }]) {
      const plan = s.provider.planRefund(s.ctx, {
        transaction: s.transaction,
        refundId: REFUND_ID,
        method: "PIX",
        ...extra,
      });
      expect(plan).toMatchObject({ status: "not_supported", code: "cashout_not_available" });
      expect((plan as { message: string }).message).toContain("no payment initiation");
    }
    expect(s.calls).toEqual([]);
  });
});

describe("PUT and GET /pix/{e2eid}/devolucao/{id}", () => {
  test("the refund PUTs {valor} under its id and reads the answer through the table", async () => {
    const s = scripted(() => devolucao("EM_PROCESSAMENTO"));
    expect(await s.provider.refund(s.ctx, { refund: s.refund, transaction: s.transaction })).toEqual({
      status: "pending",
      inProgress: true,
      checkAt: T0 + 15_000,
    });
    expect(s.calls).toEqual([{ method: "PUT", path: `/pix/${E2E}/devolucao/${DEV_ID}`, body: { valor: "12.34" } }]);
  });

  test("the status query GETs the same path", async () => {
    const s = scripted(() => devolucao("DEVOLVIDO"));
    expect(await s.provider.refundStatus(s.ctx, { refund: s.refund, transaction: s.transaction })).toEqual({
      status: "settled",
    });
    expect(s.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET /pix/${E2E}/devolucao/${DEV_ID}`]);
  });

  test("a 4xx on the PUT for an id already ours is resolved by a GET with the same valor", async () => {
    const s = scripted((c) => (c.method === "PUT" ? problem(400, "PixDevolucaoInvalida") : devolucao("DEVOLVIDO")));
    expect(await s.provider.refund(s.ctx, { refund: s.refund, transaction: s.transaction })).toEqual({
      status: "settled",
    });
    expect(s.calls.map((c) => c.method)).toEqual(["PUT", "GET"]);
  });

  test("a 4xx on the PUT for an id that is not ours (other valor, or none) is a rejection with the problem's name", async () => {
    for (const get of [
      () => devolucao("EM_PROCESSAMENTO", { valor: "99.99" }),
      () => problem(404, "PixDevolucaoNaoEncontrada"),
    ]) {
      const s = scripted((c) => (c.method === "PUT" ? problem(400, "PixDevolucaoInvalida") : get()));
      expect(await s.provider.refund(s.ctx, { refund: s.refund, transaction: s.transaction })).toMatchObject({
        status: "rejected",
        code: "PixDevolucaoInvalida",
      });
    }
  });

  test("5xx and 429 are retryable, a 401 twice is an auth failure, a GET 404 changes nothing", async () => {
    for (const status of [500, 503, 429]) {
      const s = scripted(() => problem(status, "ServicoIndisponivel"));
      expect(await s.provider.refund(s.ctx, { refund: s.refund, transaction: s.transaction })).toMatchObject({
        status: "retryable",
      });
    }
    const auth = scripted(() => problem(401, "AcessoNegado"));
    expect(
      await auth.provider.refundStatus(auth.ctx, { refund: auth.refund, transaction: auth.transaction }),
    ).toMatchObject({ status: "auth_failed" });
    const missing = scripted(() => problem(404, "PixDevolucaoNaoEncontrada"));
    expect(
      await missing.provider.refundStatus(missing.ctx, { refund: missing.refund, transaction: missing.transaction }),
    ).toMatchObject({
      status: "invalid",
      code: "PixDevolucaoNaoEncontrada",
    });
  });

  test("a Pix that must go back is returned whole with natureza ORIGINAL under the recorded id", async () => {
    const s = scripted(() => devolucao("EM_PROCESSAMENTO", { valor: "30.00" }));
    const req = {
      transaction: s.transaction,
      endToEndId: E2E,
      returnId: "D12345678202611201200returnid001",
      amount: 3000,
      requestedAt: T0,
    };
    expect(await s.provider.returnPayment!(s.ctx, req)).toEqual({
      status: "pending",
      inProgress: true,
      checkAt: T0 + 15_000,
    });
    expect(await s.provider.returnStatus!(s.ctx, req)).toMatchObject({ status: "pending", inProgress: true });
    expect(s.calls).toEqual([
      { method: "PUT", path: `/pix/${E2E}/devolucao/${req.returnId}`, body: { valor: "30.00", natureza: "ORIGINAL" } },
      { method: "GET", path: `/pix/${E2E}/devolucao/${req.returnId}`, body: null },
    ]);
  });
});

describe("callbacks naming devoluções", () => {
  test("each Pix entry's devolucoes ids are hints; malformed ids are dropped", () => {
    const s = scripted(() => devolucao("DEVOLVIDO"));
    const body = {
      pix: [
        {
          endToEndId: E2E,
          txid: "abc",
          valor: "50.00",
          devolucoes: [{ id: DEV_ID, status: "DEVOLVIDO" }, { id: "bad id!" }, null],
        },
        { endToEndId: E2E, txid: "abc" },
      ],
    };
    expect(s.provider.parseNotification(s.ctx, { body })).toEqual({
      status: "parsed",
      items: [
        { ref: { txid: "abc", endToEndId: E2E }, refundIds: [DEV_ID] },
        { ref: { txid: "abc", endToEndId: E2E } },
      ],
    });
  });
});
