/**
 * The bcb_pix_v2 provider's status table and failure mapping (src/providers/bcb-pix-v2/provider.ts
 * header), with a PSP scripted through the injected fetch, and the API Pix `valor` conversion.
 */
import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/lib/clock";
import { BcbPixClient } from "../../src/providers/bcb-pix-v2/client";
import { createBcbPixProvider } from "../../src/providers/bcb-pix-v2/provider";
import { fromValor, toValor } from "../../src/providers/bcb-pix-v2/valor";
import type { ProviderContext, TransactionRow } from "../../src/domain/providers/types";

const START = "2026-11-20T12:00:00.000Z";
const T0 = Date.parse(START);
const TXID = "Cofre0000000000000000000001";

/** A provider whose PSP answers every API call with `answer` (the token call always succeeds). */
function scripted(answer: (url: string) => Response) {
  const clock = new ManualClock(START);
  const fetch = async (input: string | URL | Request) =>
    String(input).endsWith("/token")
      ? Response.json({ access_token: "t", token_type: "Bearer", expires_in: 3600 })
      : answer(String(input));
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
  const transaction = { id: "t1", pixTxid: TXID, createdAt: T0, expiresAt: T0 + 600_000 } as TransactionRow;
  return {
    provider,
    ctx,
    clock,
    query: (memo?: Record<string, string>) => provider.queryStatus(ctx, { transaction, ...(memo ? { memo } : {}) }),
  };
}

const cob =
  (status: string, extra: Record<string, unknown> = {}) =>
  () =>
    Response.json({ txid: TXID, status, calendario: { criacao: START, expiracao: 600 }, ...extra });

describe("status table of GET /cob/{txid}", () => {
  test("ATIVA before its expiry is pending with the next poll, at its expiry expired", async () => {
    const s = scripted(cob("ATIVA"));
    expect(await s.query()).toEqual({ status: "pending", checkAt: T0 + 15_000 });
    s.clock.advance(599);
    expect(await s.query()).toEqual({ status: "pending", checkAt: T0 + 600_000 }); // the expiry check
    s.clock.advance(1);
    expect(await s.query()).toEqual({ status: "expired" });
  });

  test("CONCLUIDA is settled with the Pix amount, end-to-end id and the payer when the PSP gives one", async () => {
    const pix = {
      endToEndId: "E12345678202611201200abcdefghijk",
      valor: "10.05",
      horario: START,
      pagador: { nome: "Ana", cpf: "12345678909" },
    };
    expect(await scripted(cob("CONCLUIDA", { pix: [pix] })).query()).toEqual({
      status: "settled",
      method: "PIX",
      amount: 1005,
      endToEndId: pix.endToEndId,
      payerTaxId: "12345678909",
      payerName: "Ana",
      disclosed: true,
      paidAt: T0,
    });
    const { pagador: _, ...anonymous } = pix;
    expect(await scripted(cob("CONCLUIDA", { pix: [anonymous] })).query()).toMatchObject({
      status: "settled",
      payerTaxId: null,
      disclosed: false,
    });
    expect(await scripted(cob("CONCLUIDA")).query()).toEqual({ status: "pending", checkAt: T0 + 15_000 }); // its Pix not listed yet
  });

  test("REMOVIDA_* is rejected with the status as the code; an unknown status changes nothing", async () => {
    for (const status of ["REMOVIDA_PELO_USUARIO_RECEBEDOR", "REMOVIDA_PELO_PSP"])
      expect(await scripted(cob(status)).query()).toMatchObject({ status: "rejected", code: status });
    expect(await scripted(cob("PAGA")).query()).toMatchObject({ status: "invalid", code: "unknown_status" });
  });

  test("a 5xx or 429 is retryable, another 4xx invalid (nothing changes), both with the problem's name", async () => {
    const problem = (status: number, name: string) => () =>
      Response.json({ type: `https://pix.bcb.gov.br/api/v2/error/${name}`, title: name, status }, { status });
    expect(await scripted(problem(503, "ServicoIndisponivel")).query()).toMatchObject({
      status: "retryable",
      code: "ServicoIndisponivel",
    });
    expect(await scripted(problem(429, "MuitasRequisicoes")).query()).toMatchObject({
      status: "retryable",
      code: "MuitasRequisicoes",
    });
    expect(await scripted(problem(404, "CobNaoEncontrado")).query()).toMatchObject({
      status: "invalid",
      code: "CobNaoEncontrado",
    });
  });
});

describe("a Pix named by a callback or the sweep (GET /pix/{e2eid})", () => {
  const E2E = "E12345678202611201200abcdefghijk";
  const pix = (txid: string) => ({ endToEndId: E2E, txid, valor: "10.05", horario: "2026-11-20T12:03:00Z" });

  test("confirms the payment when the PSP knows the Pix and it is our cob's, with horario as paidAt", async () => {
    const s = scripted((url) => (url.includes(`/pix/${E2E}`) ? Response.json(pix(TXID)) : cob("ATIVA")()));
    expect(await s.query({ endToEndId: E2E })).toMatchObject({
      status: "settled",
      amount: 1005,
      endToEndId: E2E,
      paidAt: T0 + 180_000,
    });
  });

  test("an end-to-end id the PSP does not know, or another cob's Pix, is only a hint: the cob decides", async () => {
    const unknown = scripted((url) =>
      url.includes("/pix/")
        ? Response.json({ title: "Pix não encontrado", status: 404 }, { status: 404 })
        : cob("ATIVA")(),
    );
    expect(await unknown.query({ endToEndId: E2E })).toEqual({ status: "pending", checkAt: T0 + 15_000 });
    const foreign = scripted((url) =>
      url.includes("/pix/") ? Response.json(pix("Outra0000000000000000000001")) : cob("ATIVA")(),
    );
    expect(await foreign.query({ endToEndId: E2E })).toEqual({ status: "pending", checkAt: T0 + 15_000 });
  });
});

describe("listing received Pix for the sweep (GET /pix?inicio=&fim=)", () => {
  test("reads every page, keeps the Pix that name a cob as hints and every Pix with its amount for reconciliation", async () => {
    const urls: URL[] = [];
    const s = scripted((raw) => {
      const url = new URL(raw);
      urls.push(url);
      const page = Number(url.searchParams.get("paginacao.paginaAtual"));
      const horario = "2026-11-20T11:45:00Z";
      const pix =
        page === 0
          ? [
              {
                endToEndId: "E1",
                txid: "T1",
                valor: "1.00",
                horario,
                devolucoes: [{ id: "D1", valor: "0.50", status: "DEVOLVIDO" }],
              },
              { endToEndId: "E2", valor: "2.00", horario },
            ]
          : [
              { endToEndId: "E3", txid: "T3", valor: "3.00", horario },
              { endToEndId: "E4", txid: "T4", valor: "4" },
            ];
      return Response.json({
        parametros: {
          paginacao: { paginaAtual: page, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 },
        },
        pix,
      });
    });
    const listed = await s.provider.listPayments!(s.ctx, { from: T0 - 1_800_000, to: T0 });
    const at = Date.parse("2026-11-20T11:45:00Z");
    expect(listed).toEqual({
      status: "listed",
      items: [
        { ref: { txid: "T1", endToEndId: "E1" } },
        { ref: { txid: "T3", endToEndId: "E3" } },
        { ref: { txid: "T4", endToEndId: "E4" } },
      ],
      // A Pix without a valid valor or horario is no record to reconcile (E4).
      received: [
        { endToEndId: "E1", txid: "T1", amount: 100, at, returns: [{ id: "D1", amount: 50, status: "REFUNDED" }] },
        { endToEndId: "E2", txid: null, amount: 200, at, returns: [] },
        { endToEndId: "E3", txid: "T3", amount: 300, at, returns: [] },
      ],
    });
    expect(
      urls.map((u) => [
        u.pathname,
        u.searchParams.get("inicio"),
        u.searchParams.get("fim"),
        u.searchParams.get("paginacao.paginaAtual"),
      ]),
    ).toEqual([
      ["/v2/pix", "2026-11-20T11:30:00Z", "2026-11-20T12:00:00Z", "0"],
      ["/v2/pix", "2026-11-20T11:30:00Z", "2026-11-20T12:00:00Z", "1"],
    ]);
  });

  test("a PSP failure is a failure outcome (the sweep logs it and goes on)", async () => {
    const s = scripted(() => Response.json({ title: "Serviço indisponível", status: 503 }, { status: 503 }));
    expect(await s.provider.listPayments!(s.ctx, { from: T0 - 1000, to: T0 })).toMatchObject({ status: "retryable" });
  });
});

describe("valor (reais with two decimals) and centavos", () => {
  test("converts both ways without floating point", () => {
    expect([toValor(0), toValor(5), toValor(100), toValor(12345), toValor(999_999_999_999)]).toEqual([
      "0.00",
      "0.05",
      "1.00",
      "123.45",
      "9999999999.99",
    ]);
    expect([fromValor("0.05"), fromValor("123.45"), fromValor("9999999999.99")]).toEqual([5, 12345, 999_999_999_999]);
    for (const bad of ["1.5", "1", "-1.00", "1.000", "01234567890.00", 1.5, null]) expect(fromValor(bad)).toBeNull();
    expect(() => toValor(1.5)).toThrow(RangeError);
    expect(() => toValor(-1)).toThrow(RangeError);
  });
});
