/**
 * A live Pix charge through a bcb_pix_v2 connection, end to end against psp-sim over real mTLS
 * (extensions.md "Live Pix over the BCB API Pix (v2)" Create; issue 14 §3): the cob the PSP
 * received (expiry, valor in reais, chave, devedor, solicitacaoPagador <= 140), the BR Code is
 * the PSP's pixCopiaECola, a payment at the PSP becomes `paid` after a status check
 * (GET /cob/{txid}), a PSP 503 is our 503, cancel withdraws the cob, and without a connection
 * (never connected, or deleted) a live charge is 422 again.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runStatusCheck } from "../../src/domain/charges/outcomes";
import { getBalance } from "../../src/domain/ledger";
import { hasError, parsePix } from "pix-utils";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { SimClient, startFixture, validCpf, type SimFixture } from "../psp-sim/support";
import { key } from "../payments/support";
import { connectionPath, OPERATOR_TOKEN } from "./support";

let fx: SimFixture;
let sim: SimClient;
let h: Harness;
let a: SeededAccount;
beforeAll(async () => {
  fx = await startFixture();
  sim = new SimClient(fx);
  expect((await sim.login()).status).toBe(200);
  h = createHarness({ operatorToken: OPERATOR_TOKEN });
  a = await h.seedAccount({ name: "Loja Viva" });
  const body = { ...fx.init.body, api_url: fx.sim.apiUrl, token_url: fx.sim.tokenUrl };
  expect((await h.call("PUT", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN, body })).status).toBe(200);
});
afterAll(() => fx.cleanup());

const create = (acct: SeededAccount, body: Record<string, unknown>) =>
  h.call("POST", "/v1/pix/charges", { key: acct.liveKey, body, headers: { "Idempotency-Key": key("live") } });
const charge = (id: string) => h.call("GET", `/v1/charges/${id}`, { key: a.liveKey });

describe("creating a live charge", () => {
  test("PUT /cob/{txid} carries the expiry, the amount in reais, the key, the debtor and the description; the BR Code is the PSP's", async () => {
    const document = validCpf();
    const description = "Pedido 42 - ".padEnd(150, "x");
    const r = await create(a, {
      amount: 12345,
      description,
      expires_in: 600,
      customer: { name: "Fulana de Tal", document },
    });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe("pending");
    const txid: string = r.body.pix.txid;
    expect(txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    const cob = await sim.api("GET", `/cob/${txid}`);
    expect(cob.status).toBe(200);
    expect(cob.body).toMatchObject({
      txid,
      status: "ATIVA",
      calendario: { expiracao: 600 },
      valor: { original: "123.45" },
      chave: fx.init.body.pix_key,
      devedor: { cpf: document, nome: "Fulana de Tal" },
      solicitacaoPagador: description.slice(0, 140),
    });
    expect(r.body.pix.br_code).toBe(cob.body.pixCopiaECola);
    // An independent BR Code parser reads the amount and the PSP's location.
    const parsed = parsePix(r.body.pix.br_code) as any;
    expect(hasError(parsed)).toBe(false);
    expect(parsed.type).toBe("DYNAMIC");
    expect(parsed.url).toBe(cob.body.location);
  });

  test("no devedor without both name and document, and no solicitacaoPagador without a description", async () => {
    const r = await create(a, { amount: 500, customer: { name: "Só Nome" } });
    expect(r.status).toBe(201);
    const cob = await sim.api("GET", `/cob/${r.body.pix.txid}`);
    expect(cob.body.valor).toEqual({ original: "5.00" });
    expect(cob.body.devedor).toBeUndefined();
    expect(cob.body.solicitacaoPagador).toBeUndefined();
  });

  test("a PSP 503 answers 503 service_unavailable and stores nothing", async () => {
    const before = (await h.call("GET", "/v1/charges", { key: a.liveKey })).body.data.length;
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob" });
    const r = await create(a, { amount: 700 });
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe("service_unavailable");
    expect((await h.call("GET", "/v1/charges", { key: a.liveKey })).body.data.length).toBe(before);
  });
});

describe("paying and cancelling", () => {
  test("a payment at the PSP becomes paid after a status check (GET /cob/{txid}), crediting the live balance", async () => {
    const r = await create(a, { amount: 2500 });
    const id = r.body.id.slice(3);
    const before = await getBalance(h.deps.store.read, a.accountId, true, "BRL");
    await runStatusCheck(h.deps, id, "PIX");
    expect((await charge(id)).body.status).toBe("pending"); // ATIVA: nothing changes
    const paid = await sim.control("POST", `/_sim/cob/${r.body.pix.txid}/pay`, {
      pagador: { nome: "Pagador Teste", cpf: validCpf() },
    });
    expect(paid.status).toBe(200);
    await runStatusCheck(h.deps, id, "PIX");
    const after = await charge(id);
    expect(after.body.status).toBe("paid");
    expect(after.body.amount).toBe(2500);
    const balance = await getBalance(h.deps.store.read, a.accountId, true, "BRL");
    expect(balance.pending + balance.available - (before.pending + before.available)).toBe(2500);
  });

  test("cancel withdraws the cob at the PSP (REMOVIDA_PELO_USUARIO_RECEBEDOR) and the charge is cancelled", async () => {
    const r = await create(a, { amount: 900 });
    const c = await h.call("POST", `/v1/payments/${r.body.id.slice(3)}/cancel`, { key: a.liveKey, body: {} });
    expect(c.status).toBe(200);
    expect(c.body.status).toBe("CANCELLED");
    expect((await sim.api("GET", `/cob/${r.body.pix.txid}`)).body.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR");
  });
});

describe("without a connection", () => {
  test("an account never connected gets 422, and after DELETE the connected one does too", async () => {
    const other = await h.seedAccount();
    const none = await create(other, { amount: 100 });
    expect([none.status, none.body.error.code]).toEqual([422, "unprocessable_entity"]);
    expect((await h.call("DELETE", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN })).status).toBe(204);
    const gone = await create(a, { amount: 100 });
    expect([gone.status, gone.body.error.code]).toEqual([422, "unprocessable_entity"]);
  });
});
