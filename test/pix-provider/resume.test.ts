/**
 * The bcb_pix_v2 create with a reservation (src/providers/bcb-pix-v2/provider.ts `reserve` and
 * resumed creates; src/domain/charges/intents.ts state machine), with a PSP scripted through the
 * injected fetch: which calls are sent and which outcome each cob answer becomes.
 */
import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/lib/clock";
import { BcbPixClient } from "../../src/providers/bcb-pix-v2/client";
import { createBcbPixProvider } from "../../src/providers/bcb-pix-v2/provider";
import type { CreateRequest, ProviderContext, TransactionRow } from "../../src/domain/providers/types";

const START = "2026-11-20T12:00:00.000Z";
const T0 = Date.parse(START);
const TXID = "Cofre0000000000000000000042";
const BR =
  "00020101021226830014br.gov.bcb.pix2561psp.example.com/qr/v2/abc5204000053039865802BR5905LOJA6009SAO PAULO62070503***6304ABCD";

/** A provider whose PSP answers each API call with `answer(method, path)`; records `METHOD path` of each. */
function scripted(answer: (method: string, path: string) => Response) {
  const clock = new ManualClock(START);
  const calls: string[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    if (url.endsWith("/token")) return Response.json({ access_token: "t", token_type: "Bearer", expires_in: 3600 });
    const path = new URL(url).pathname.replace("/v2", "");
    calls.push(`${init?.method ?? "GET"} ${path}`);
    return answer(init?.method ?? "GET", path);
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
  const transaction = {
    id: "t1",
    amount: 1234,
    metadata: "{}",
    customerName: null,
    customerDocument: null,
    ttlSeconds: 600,
    createdAt: T0,
    expiresAt: T0 + 600_000,
  } as TransactionRow;
  const req = (reservation?: CreateRequest["reservation"]): CreateRequest => ({
    transaction,
    methods: ["PIX"],
    settings: {} as CreateRequest["settings"],
    merchant: { name: "Loja", city: "SAO PAULO" },
    ...(reservation ? { reservation } : {}),
  });
  return {
    provider,
    ctx,
    clock,
    calls,
    create: (reservation?: CreateRequest["reservation"]) => provider.create(ctx, req(reservation)),
  };
}

const cob = (status: string, valor = "12.34") =>
  Response.json({
    txid: TXID,
    status,
    valor: { original: valor },
    calendario: { criacao: START, expiracao: 600 },
    location: "psp.example.com/qr/v2/abc",
    pixCopiaECola: BR,
  });
const problem = (status: number, name: string) =>
  Response.json({ type: `https://pix.bcb.gov.br/api/v2/error/${name}`, title: name, status }, { status });
const created = {
  status: "pending" as const,
  columns: {
    pixTxid: TXID,
    pixBrCode: BR,
    pixLocation: "psp.example.com/qr/v2/abc",
    expiresAt: T0 + 600_000,
    providerConnectionId: "ppc_x",
  },
};

describe("reserve", () => {
  test("picks a cob txid of 26-35 alphanumerics other than the transaction id, and names the connection, without any call", () => {
    const s = scripted(() => cob("ATIVA"));
    const r = s.provider.reserve!(s.ctx, { transaction: { id: "t1", createdAt: T0 } as TransactionRow });
    expect(r.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(r.connectionId).toBe("ppc_x");
    expect(s.calls).toEqual([]);
  });
});

describe("a create with a reservation", () => {
  test("a fresh reservation PUTs the reserved txid at once", async () => {
    const s = scripted((m) => (m === "PUT" ? cob("ATIVA") : problem(404, "CobNaoEncontrado")));
    expect(await s.create({ txid: TXID, connectionId: "ppc_x", resumed: false })).toEqual({
      ...created,
      checkAt: T0 + 15_000,
    });
    expect(s.calls).toEqual([`PUT /cob/${TXID}`]);
  });

  test("a resumed one asks GET /cob first: ATIVA with our valor is taken as is, no PUT", async () => {
    const s = scripted((m) => (m === "GET" ? cob("ATIVA") : problem(500, "ErroInternoDoServidor")));
    s.clock.advance(30);
    // The next poll of the backoff as of now (15 s then 1 min after creation: T0 + 75 s).
    expect(await s.create({ txid: TXID, connectionId: "ppc_x", resumed: true })).toEqual({
      ...created,
      checkAt: T0 + 75_000,
    });
    expect(s.calls).toEqual([`GET /cob/${TXID}`]);
  });

  test("a resumed one whose cob the PSP does not know (404) PUTs it", async () => {
    const s = scripted((m) => (m === "GET" ? problem(404, "CobNaoEncontrado") : cob("ATIVA")));
    expect(await s.create({ txid: TXID, connectionId: "ppc_x", resumed: true })).toMatchObject({
      status: "pending",
      columns: { pixTxid: TXID },
    });
    expect(s.calls).toEqual([`GET /cob/${TXID}`, `PUT /cob/${TXID}`]);
  });

  test("a lookup-only one (recovery) never PUTs: 404 is absent", async () => {
    const s = scripted((m) => (m === "GET" ? problem(404, "CobNaoEncontrado") : cob("ATIVA")));
    expect(await s.create({ txid: TXID, connectionId: "ppc_x", resumed: true, lookupOnly: true })).toEqual({
      status: "absent",
    });
    expect(s.calls).toEqual([`GET /cob/${TXID}`]);
  });

  test("a cob paid meanwhile (CONCLUIDA) is pending with a status check due now, which pays it", async () => {
    const s = scripted(() => cob("CONCLUIDA"));
    s.clock.advance(200);
    expect(await s.create({ txid: TXID, connectionId: "ppc_x", resumed: true, lookupOnly: true })).toEqual({
      ...created,
      checkAt: T0 + 200_000,
    });
  });

  test("a removed cob is rejected with its status; another valor is rejected CobDivergente", async () => {
    for (const status of ["REMOVIDA_PELO_USUARIO_RECEBEDOR", "REMOVIDA_PELO_PSP"])
      expect(
        await scripted(() => cob(status)).create({ txid: TXID, connectionId: "ppc_x", resumed: true }),
      ).toMatchObject({ status: "rejected", code: status });
    expect(
      await scripted(() => cob("ATIVA", "12.35")).create({ txid: TXID, connectionId: "ppc_x", resumed: true }),
    ).toMatchObject({ status: "rejected", code: "CobDivergente" });
  });

  test("a GET that fails (5xx, or a 4xx other than 404) is retryable: whether the cob exists is unknown", async () => {
    expect(
      await scripted(() => problem(503, "ServicoIndisponivel")).create({
        txid: TXID,
        connectionId: "ppc_x",
        resumed: true,
      }),
    ).toMatchObject({ status: "retryable", code: "ServicoIndisponivel" });
    const s = scripted((m) => (m === "GET" ? problem(400, "CobConsultaInvalida") : cob("ATIVA")));
    expect(await s.create({ txid: TXID, connectionId: "ppc_x", resumed: true })).toMatchObject({
      status: "retryable",
      code: "CobConsultaInvalida",
    });
    expect(s.calls).toEqual([`GET /cob/${TXID}`]);
  });
});
