/**
 * What reconciliation and live MED read from an `efi` PSP (src/providers/bcb-pix-v2/reconcile.ts),
 * against a scripted fetch: the sent Pix of `GET /v2/gn/pix/enviados` (every page, Efí's statuses
 * mapped, malformed entries skipped), the infractions of `GET /v2/gn/infracoes` (`valor` a number
 * of reais, the deadline from `dadosAnalise.prazoFinalizacao`, malformed entries skipped) and the
 * defence `POST /v2/gn/infracoes/{id}/defesa`; a `bcb_pix_v2` connection has none of these flows.
 */
import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/lib/clock";
import { BcbPixClient } from "../../src/providers/bcb-pix-v2/client";
import { createBcbPixProvider } from "../../src/providers/bcb-pix-v2/provider";
import { infractionValor } from "../../src/providers/bcb-pix-v2/reconcile";
import type { ProviderContext } from "../../src/domain/providers/types";

const START = "2026-11-20T12:00:00.000Z";
const T0 = Date.parse(START);
type Call = { method: string; path: string; query: Record<string, string>; body: unknown };

function scripted(answer: (c: Call) => Response, type: "efi" | "bcb_pix_v2" = "efi") {
  const clock = new ManualClock(START);
  const calls: Call[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname === "/oauth/token")
      return Response.json({ access_token: "t", token_type: "Bearer", expires_in: 3600 });
    const c = {
      method: init?.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: typeof init?.body === "string" ? JSON.parse(init.body) : null,
    };
    calls.push(c);
    return answer(c);
  };
  const conn = {
    id: "ppc_x",
    type,
    apiUrl: "https://efi.example.com",
    tokenUrl: "https://efi.example.com/oauth/token",
    clientId: "c",
    clientSecret: "s",
    certificate: "",
    privateKey: "",
    caCertificates: null,
    scope: null,
    tokenAuth: "basic" as const,
    apiQuery: null,
  };
  const client = new BcbPixClient(conn as never, { fetch, clock });
  const provider = createBcbPixProvider({
    connectionId: "ppc_x",
    flavour: type,
    pixKey: "key",
    client: async () => client,
  });
  return { provider, ctx: { clock } as unknown as ProviderContext, calls };
}

const pages = (field: string, byPage: unknown[][]) => (c: Call) => {
  const page = Number(c.query["paginacao.paginaAtual"]);
  return Response.json({
    parametros: { paginacao: { paginaAtual: page, itensPorPagina: 2, quantidadeDePaginas: byPage.length } },
    [field]: byPage[page],
  });
};

describe("the sent Pix of an efi connection", () => {
  test("are read from every page of GET /v2/gn/pix/enviados with Efí's statuses mapped and malformed entries skipped", async () => {
    const horario = { solicitacao: "2026-11-20T10:00:00Z" };
    const s = scripted(
      pages("pix", [
        [
          { idEnvio: "po1", e2eId: "E1", valor: "5.00", status: "REALIZADO", horario },
          { idEnvio: "po2", e2eId: "E2", valor: "6.00", status: "NAO_REALIZADO", horario },
        ],
        [
          { gnExtras: { idEnvio: "po3" }, endToEndId: "E3", valor: "7.00", status: "EM_PROCESSAMENTO", horario },
          { idEnvio: "po4", e2eId: "E4", valor: "7", status: "REALIZADO", horario },
          { e2eId: "E5", valor: "8.00", status: "DESCONHECIDO", horario },
        ],
      ]),
    );
    const at = Date.parse(horario.solicitacao);
    expect(await s.provider.listSends!(s.ctx, { from: T0 - 3_600_000, to: T0 })).toEqual({
      status: "listed",
      sends: [
        { sendId: "po1", endToEndId: "E1", amount: 500, status: "paid", at },
        { sendId: "po2", endToEndId: "E2", amount: 600, status: "failed", at },
        { sendId: "po3", endToEndId: "E3", amount: 700, status: "processing", at },
      ],
    });
    expect(
      s.calls.map((c) => [c.method, c.path, c.query.inicio, c.query.fim, c.query["paginacao.paginaAtual"]]),
    ).toEqual([
      ["GET", "/v2/gn/pix/enviados", "2026-11-20T11:00:00Z", "2026-11-20T12:00:00Z", "0"],
      ["GET", "/v2/gn/pix/enviados", "2026-11-20T11:00:00Z", "2026-11-20T12:00:00Z", "1"],
    ]);
  });

  test("a PSP failure on a page is a failure outcome", async () => {
    const s = scripted(() => Response.json({ nome: "erro_interno", mensagem: "x" }, { status: 503 }));
    expect(await s.provider.listSends!(s.ctx, { from: T0 - 1000, to: T0 })).toMatchObject({ status: "retryable" });
  });
});

describe("the MED infractions of an efi connection", () => {
  test("are read from GET /v2/gn/infracoes with valor in centavos, the analysis deadline and malformed entries skipped", async () => {
    const base = {
      endToEndId: "E99999999202611201200ABCDEFGHIJK",
      status: "ABERTA",
      razao: "Golpe",
      tipoSituacao: "golpe",
      criadoEm: "2026-11-20T11:55:00Z",
    };
    const s = scripted(
      pages("infracoes", [
        [
          {
            ...base,
            idInfracao: "inf-1",
            valor: 12.34,
            dadosAnalise: { abertura: "2026-11-20T11:55:00Z", prazoFinalizacao: "2026-11-27T11:55:00Z" },
          },
          { ...base, idInfracao: "inf-2", valor: 0.1, status: "ACEITA" },
          { ...base, idInfracao: "inf-3", valor: 1.234 },
          { ...base, idInfracao: "inf-4", valor: 5, status: "OUTRA" },
          { ...base, idInfracao: "inf-5", valor: 5, criadoEm: "ontem" },
        ],
      ]),
    );
    const createdAt = Date.parse(base.criadoEm);
    expect(await s.provider.listInfractions!(s.ctx, { from: T0 - 900_000, to: T0 })).toEqual({
      status: "listed",
      infractions: [
        {
          id: "inf-1",
          endToEndId: base.endToEndId,
          amount: 1234,
          status: "ABERTA",
          reason: "Golpe",
          kind: "golpe",
          createdAt,
          deadline: Date.parse("2026-11-27T11:55:00Z"),
        },
        {
          id: "inf-2",
          endToEndId: base.endToEndId,
          amount: 10,
          status: "ACEITA",
          reason: "Golpe",
          kind: "golpe",
          createdAt,
          deadline: null,
        },
      ],
    });
    expect(s.calls.map((c) => [c.path, c.query.inicio, c.query.fim])).toEqual([
      ["/v2/gn/infracoes", "2026-11-20T11:45:00Z", "2026-11-20T12:00:00Z"],
    ]);
  });

  test("valor is taken as a number of reais or the standard's string, never with fractions of a centavo", () => {
    expect([infractionValor(12.34), infractionValor(0.1), infractionValor(100), infractionValor("7.50")]).toEqual([
      1234, 10, 10000, 750,
    ]);
    for (const bad of [1.234, -1, 0, Number.NaN, "7.5", null, undefined]) expect(infractionValor(bad)).toBeNull();
  });

  test("a defence is POST /v2/gn/infracoes/{id}/defesa with analise rejeitado and the merchant's justification", async () => {
    const s = scripted(() => new Response(null, { status: 200 }));
    expect(
      await s.provider.submitDefense!(s.ctx, { infractionId: "inf-1", justification: "Mercadoria entregue." }),
    ).toEqual({ status: "settled" });
    expect(s.calls).toEqual([
      {
        method: "POST",
        path: "/v2/gn/infracoes/inf-1/defesa",
        query: {},
        body: { analise: "rejeitado", justificativa: "Mercadoria entregue." },
      },
    ]);
  });

  test("a refused defence is rejected with Efí's error name, a PSP outage retryable", async () => {
    const refused = scripted(() => Response.json({ nome: "infracao_status_invalido", mensagem: "x" }, { status: 409 }));
    expect(
      await refused.provider.submitDefense!(refused.ctx, { infractionId: "inf-1", justification: "x" }),
    ).toMatchObject({ status: "rejected" });
    const down = scripted(() => new Response("", { status: 502 }));
    expect(await down.provider.submitDefense!(down.ctx, { infractionId: "inf-1", justification: "x" })).toMatchObject({
      status: "retryable",
    });
  });
});

test("a bcb_pix_v2 connection has no send list, infractions or defence", () => {
  const s = scripted(() => new Response(null), "bcb_pix_v2");
  expect([s.provider.listSends, s.provider.listInfractions, s.provider.submitDefense]).toEqual([
    undefined,
    undefined,
    undefined,
  ]);
});
