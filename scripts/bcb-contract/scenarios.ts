/**
 * The live scenarios of the BCB contract check (issue 14 §5): starts `cofre psp-sim` with
 * `--exchange-log` and `cofre serve` live against it (COFRE_TEST_CLOCK=1,
 * both as child processes of `bun src/main.ts`, on 127.0.0.1), connects an account (token + webhook
 * registration) and drives each scenario through Cofre's public API and the simulator's control
 * routes. Clocks move through `POST /v1/test_helpers/clock/advance` and `/_sim/clock/advance`,
 * never by sleeping (waits poll Cofre until a state shows, bounded). Returns the exchange log.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpf } from "cpf-cnpj-validator";
import { SimProcess } from "../../bench/lib/psp-sim";
import { api, cliInit, CofreServer } from "../../bench/lib/server";

export const SCENARIOS = [
  "webhook registration",
  "create",
  "pay by callback",
  "pay with callbacks dropped (poll + sweep)",
  "psp 503 then retry with the same key",
  "cancel",
  "expiry",
  "token expiry mid-run",
  "refund",
  "efi send (cashout refund)",
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface ScenarioResult {
  name: ScenarioName;
  outcome: "ok" | "skipped" | "failed";
  note?: string;
}

export interface ScenarioRun {
  exchangeLog: string;
  results: ScenarioResult[];
  /** Removes the temporary folders (the log included). */
  cleanup(): void;
}

const OPERATOR = "contract_operator_token_0123456789";
const SRC = ["bun", "src/main.ts"];

class Failed extends Error {}
function expect(cond: unknown, what: string): asserts cond {
  if (!cond) throw new Failed(what);
}

/**
 * Runs `only` (default every scenario; "webhook registration" always runs first since the
 * others need the connection). Throws only when the processes cannot start.
 */
export async function runScenarios(
  only: readonly ScenarioName[] = SCENARIOS,
  log: (line: string) => void = () => {},
): Promise<ScenarioRun> {
  const work = mkdtempSync(join(tmpdir(), "bcb-contract-"));
  const exchangeLog = join(work, "exchanges.jsonl");
  const sim = new SimProcess({ cmd: SRC, exchangeLog });
  const cofre = new CofreServer({
    cmd: SRC,
    env: { COFRE_TEST_CLOCK: "1", COFRE_OPERATOR_TOKEN: OPERATOR, LOG_LEVEL: "error" },
  });
  const results: ScenarioResult[] = [];
  const cleanup = () => {
    rmSync(work, { recursive: true, force: true });
    cofre.removeData();
  };
  try {
    await sim.init();
    const accountId = await cliInit(cofre, "contract@example.com", "contract password 123", "Loja Contrato");
    await Promise.all([sim.start(), cofre.start()]);
    const login = await api(cofre.base, "POST", "/v1/auth/login", {
      body: { email: "contract@example.com", password: "contract password 123" },
    });
    const keyOf = async (test: boolean) =>
      (
        await api(cofre.base, "POST", "/v1/api-keys", {
          bearer: login.body.access_token,
          body: { label: "contract", test },
        })
      ).body.apiKey as string;
    const liveKey = await keyOf(false);
    const testKey = await keyOf(true);

    let n = 0;
    const create = (body: Record<string, unknown>, idem = `contract-${Date.now()}-${n++}`) =>
      api(cofre.base, "POST", "/v1/pix/charges", { key: liveKey, body, headers: { "idempotency-key": idem } });
    const charge = async (id: string) => (await api(cofre.base, "GET", `/v1/charges/${id}`, { key: liveKey })).body;
    /** Polls Cofre (its scheduler runs confirmations in the background) until `status`, 10 s at most. */
    const until = async (id: string, status: string) => {
      for (let i = 0; i < 400; i++) {
        if ((await charge(id)).status === status) return;
        await Bun.sleep(25);
      }
      throw new Failed(`charge ${id} did not become ${status} (is ${(await charge(id)).status})`);
    };
    /** Both clocks forward by `seconds`; Cofre runs what fell due on the way. */
    const advance = async (seconds: number) => {
      expect((await sim.control("POST", "/_sim/clock/advance", { seconds })).status === 200, "sim clock advance");
      const r = await api(cofre.base, "POST", "/v1/test_helpers/clock/advance", {
        key: testKey,
        body: { seconds },
        timeoutMs: 60_000,
      });
      expect(r.status === 200, `cofre clock advance: ${r.status} ${JSON.stringify(r.body)}`);
    };
    const pay = async (txid: string) => {
      const r = await sim.control("POST", `/_sim/cob/${txid}/pay`, {
        pagador: { nome: "Pagador Contrato", cpf: cpf.generate() },
        wait_callback: true,
      });
      expect(r.status === 200, `pay ${txid}: ${r.status}`);
      return r.body as { pix: { endToEndId: string }; callback: { status: string } };
    };
    let paid: { id: string; e2e: string } | null = null;

    const steps: Record<ScenarioName, () => Promise<string | undefined>> = {
      "webhook registration": async () => {
        const r = await api(cofre.base, "PUT", `/v1/operator/accounts/${accountId}/pix-provider`, {
          bearer: OPERATOR,
          body: sim.body,
        });
        expect(
          r.status === 200 && r.body.webhook_registered === true,
          `connect: ${r.status} ${JSON.stringify(r.body)}`,
        );
        const token = await sim.token();
        const hooks = await sim.request("GET", `${sim.body.api_url}/webhook/${encodeURIComponent(sim.body.pix_key)}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(hooks.status === 200, `GET /webhook/{chave}: ${hooks.status}`);
      },
      create: async () => {
        const r = await create({
          amount: 12345,
          description: "Pedido do contrato",
          expires_in: 3600,
          customer: { name: "Fulana de Tal", document: cpf.generate() },
        });
        expect(
          r.status === 201 && typeof r.body.pix?.txid === "string",
          `create: ${r.status} ${JSON.stringify(r.body)}`,
        );
        await charge(r.body.id);
      },
      "pay by callback": async () => {
        const c = await create({ amount: 2500 });
        expect(c.status === 201, `create: ${c.status}`);
        const p = await pay(c.body.pix.txid);
        expect(p.callback.status === "sent", `callback ${p.callback.status}`);
        await until(c.body.id, "paid");
        paid = { id: c.body.id, e2e: p.pix.endToEndId };
      },
      "pay with callbacks dropped (poll + sweep)": async () => {
        const c1 = await create({ amount: 1700 });
        const c2 = await create({ amount: 1800 });
        expect(c1.status === 201 && c2.status === 201, "create");
        expect((await sim.control("POST", "/_sim/callbacks/drop", { count: 2 })).status === 200, "drop");
        expect((await pay(c1.body.pix.txid)).callback.status === "dropped", "first callback not dropped");
        expect((await pay(c2.body.pix.txid)).callback.status === "dropped", "second callback not dropped");
        await advance(20); // the first poll (15 s) queries GET /cob/{txid}
        await advance(600); // the sweep (every 10 min) lists GET /pix
        await until(c1.body.id, "paid");
        await until(c2.body.id, "paid");
      },
      "psp 503 then retry with the same key": async () => {
        expect(
          (await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob", after: true }))
            .status === 200,
          "fault",
        );
        const idem = `contract-503-${Date.now()}`;
        // The fault answers 503 after the cob was created: the PSP holds it, Cofre was not told.
        const first = await create({ amount: 901 }, idem);
        expect(first.status === 503, `first answer ${first.status}, want 503`);
        const again = await create({ amount: 901 }, idem);
        expect(again.status === 201, `retry answer ${again.status}`);
        const txids = (await sim.cobs()).filter((c) => c.valor === "9.01").length;
        // Exactly-once create (issue 14 §3): the retry reuses the txid and finds the cob with GET.
        expect(txids === 1, `${txids} cobs of 9.01 after a 503 (cob created) and a retry with the same key`);
      },
      cancel: async () => {
        const c = await create({ amount: 900 });
        const r = await api(cofre.base, "POST", `/v1/payments/${c.body.id.slice(3)}/cancel`, {
          key: liveKey,
          body: {},
        });
        expect(r.status === 200, `cancel: ${r.status} ${JSON.stringify(r.body)}`);
      },
      expiry: async () => {
        const c = await create({ amount: 800, expires_in: 300 });
        expect(c.status === 201, `create: ${c.status}`);
        await advance(400);
        await advance(900);
        await until(c.body.id, "expired");
      },
      "token expiry mid-run": async () => {
        expect((await sim.control("POST", "/_sim/tokens/expire", {})).status === 200, "expire tokens");
        const c = await create({ amount: 1100 });
        expect(c.status === 201, `create after token expiry: ${c.status} ${JSON.stringify(c.body)}`);
      },
      refund: async () => {
        if (!paid) {
          const c = await create({ amount: 2500 });
          const p = await pay(c.body.pix.txid);
          await until(c.body.id, "paid");
          paid = { id: c.body.id, e2e: p.pix.endToEndId };
        }
        const r = await api(cofre.base, "POST", `/v1/payments/${paid.id.slice(3)}/refund`, {
          key: liveKey,
          body: { idempotencyKey: `contract-refund-${Date.now()}`, amount: 1000 },
        });
        expect(r.status === 201, `refund: ${r.status} ${JSON.stringify(r.body)}`);
        // The devolução the adapter asks for (the refund's job runs right after the commit), as
        // the PSP lists it on the Pix; settle it there.
        const token = await sim.token();
        let devs: { id: string; status: string }[] = [];
        for (let i = 0; i < 200 && devs.length === 0; i++) {
          const pix = await sim.request("GET", `${sim.body.api_url}/pix/${paid.e2e}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          devs = (pix.body?.devolucoes ?? []) as { id: string; status: string }[];
          if (devs.length === 0) await Bun.sleep(25);
        }
        expect(devs.length === 1, `devoluções at the PSP after one refund: ${devs.length}`);
        const s = await sim.control("POST", `/_sim/pix/${paid.e2e}/devolucao/${devs[0]!.id}/settle`, {});
        expect(s.status === 200 || s.status === 409, `settle devolução: ${s.status}`);
        await advance(60);
        for (let i = 0; i < 200; i++) {
          const list = (await api(cofre.base, "GET", `/v1/payments/${paid.id.slice(3)}/refunds`, { key: liveKey }))
            .body;
          const mine = ((Array.isArray(list) ? list : (list?.data ?? [])) as { id: string; status: string }[]).find(
            (x) => x.id === r.body.id,
          );
          if (mine?.status === "REFUNDED") return;
          await Bun.sleep(25);
        }
        throw new Failed(`refund ${r.body.id} did not become REFUNDED after the PSP settled its devolução`);
      },
      "efi send (cashout refund)": async () => {
        // The same simulator as Efí (api_url = its origin): standard routes under /v2, sends under /v3/gn.
        const efiBody = { ...sim.body, type: "efi", api_url: new URL(sim.body.api_url).origin };
        const r = await api(cofre.base, "PUT", `/v1/operator/accounts/${accountId}/pix-provider`, {
          bearer: OPERATOR,
          body: efiBody,
        });
        expect(
          r.status === 200 && r.body.type === "efi" && r.body.webhook_registered === true,
          `connect efi: ${r.status} ${JSON.stringify(r.body)}`,
        );
        const refundOf = async (chargeId: string, refundId: string) => {
          const list = (await api(cofre.base, "GET", `/v1/payments/${chargeId.slice(3)}/refunds`, { key: liveKey }))
            .body;
          return ((list?.data ?? []) as { id: string; status: string }[]).find((x) => x.id === refundId)?.status;
        };
        const refundUntil = async (chargeId: string, refundId: string, status: string) => {
          for (let i = 0; i < 400; i++) {
            if ((await refundOf(chargeId, refundId)) === status) return;
            if (i === 200) await advance(20); // a callback lost: the check 15 s after the request
            await Bun.sleep(25);
          }
          throw new Failed(`refund ${refundId} did not become ${status} (is ${await refundOf(chargeId, refundId)})`);
        };
        const paidWithDocument = async (amount: number) => {
          const c = await create({ amount, customer: { name: "Fulana de Tal", document: cpf.generate() } });
          expect(c.status === 201, `create: ${c.status}`);
          await pay(c.body.pix.txid);
          await until(c.body.id, "paid");
          return c.body.id as string;
        };
        // psp-sim's default rule (Efí's homologation amounts): 5.00 is paid with a callback, which
        // Cofre confirms with GET /v2/gn/pix/enviados/id-envio/{idEnvio}.
        const ok = await paidWithDocument(500);
        const r1 = await api(cofre.base, "POST", `/v1/payments/${ok.slice(3)}/refund`, {
          key: liveKey,
          body: { idempotencyKey: `contract-cashout-${Date.now()}` },
        });
        expect(r1.status === 201, `cashout refund: ${r1.status} ${JSON.stringify(r1.body)}`);
        await refundUntil(ok, r1.body.id, "REFUNDED");
        // Above 20.00 Efí's homologation refuses at the request: 422 pagamento_negado, refund FAILED.
        const big = await paidWithDocument(2500);
        const r2 = await api(cofre.base, "POST", `/v1/payments/${big.slice(3)}/refund`, {
          key: liveKey,
          body: { idempotencyKey: `contract-cashout-big-${Date.now()}` },
        });
        expect(r2.status === 201, `cashout refund: ${r2.status} ${JSON.stringify(r2.body)}`);
        await refundUntil(big, r2.body.id, "FAILED");
      },
    };
    const order = SCENARIOS.filter((s) => s === "webhook registration" || only.includes(s));
    for (const name of order) {
      log(`scenario: ${name}`);
      try {
        const note = await steps[name]();
        results.push(
          note?.startsWith("skipped")
            ? { name, outcome: "skipped", note }
            : { name, outcome: "ok", ...(note ? { note } : {}) },
        );
      } catch (err) {
        results.push({ name, outcome: "failed", note: (err as Error).message });
        if (name === "webhook registration") break;
      }
    }
  } catch (err) {
    await Promise.all([sim.kill(), cofre.kill()]);
    cleanup();
    throw err;
  }
  await Promise.all([sim.kill(), cofre.kill("SIGTERM")]);
  return { exchangeLog, results, cleanup };
}
