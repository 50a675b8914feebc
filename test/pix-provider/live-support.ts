/**
 * A live Cofre served on 127.0.0.1 with one account connected to psp-sim over mTLS (the
 * simulator's callbacks reach it), plus the helpers the refund and late-payment tests share:
 * create and pay a live charge, advance both clocks running due jobs, read the live balance, the
 * events of a charge and the simulator's devoluções, and check the ledger.
 */
import { expect } from "bun:test";
import { getBalance, verifyLedger } from "../../src/domain/ledger";
import { advanceClock } from "../../src/jobs/advance";
import { createLogger } from "../../src/lib/logger";
import { key } from "../payments/support";
import { SimClient, startFixture, validCpf, type SimFixture } from "../psp-sim/support";
import type { PspSimOptions } from "../../src/psp-sim/server";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { connectionPath, OPERATOR_TOKEN } from "./support";
import { testDb } from "../support/test-db";

export interface LiveEnv {
  fx: SimFixture;
  sim: SimClient;
  h: Harness;
  a: SeededAccount;
  connectionId: string;
  /** Cofre's log lines at warn and above (parsed). */
  warnings: { msg: string; [k: string]: unknown }[];
  stop(): Promise<void>;
}

/**
 * Starts the simulator and a served live Cofre, and connects a new account (seeded with `seed`) to
 * the simulator; `opts.type` "efi" connects it as an Efí connection (api_url = the simulator's
 * origin), `opts.sim` starts the simulator with those options.
 */
export async function startLive(
  seed: Parameters<Harness["seedAccount"]>[0] = {},
  opts: { type?: "bcb_pix_v2" | "efi"; sim?: Partial<PspSimOptions> } = {},
): Promise<LiveEnv> {
  const fx = await startFixture(opts.sim);
  const sim = new SimClient(fx);
  expect((await sim.login()).status).toBe(200);
  const warnings: LiveEnv["warnings"] = [];
  const logger = createLogger("warn", { write: (line: string) => void warnings.push(JSON.parse(line)) });
  const h = createHarness({ operatorToken: OPERATOR_TOKEN }, undefined, logger);
  h.subscribeAllEvents = true;
  const srv = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => h.app.handle(req) });
  h.deps.config.publicUrl = `http://127.0.0.1:${srv.port}`;
  const a = await h.seedAccount({ name: "Loja Viva", ...seed });
  const body =
    opts.type === "efi"
      ? { ...fx.init.efiBody, api_url: fx.sim.origin, token_url: fx.sim.tokenUrl }
      : { ...fx.init.body, api_url: fx.sim.apiUrl, token_url: fx.sim.tokenUrl };
  const r = await h.call("PUT", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN, body });
  expect([r.status, r.body.webhook_registered]).toEqual([200, true]);
  return {
    fx,
    sim,
    h,
    a,
    connectionId: r.body.id,
    warnings,
    async stop() {
      srv.stop(true);
      await fx.cleanup();
    },
  };
}

/** Creates a live Pix charge (201 expected); returns its body. */
export async function createLive(env: LiveEnv, body: Record<string, unknown>) {
  const r = await env.h.call("POST", "/v1/pix/charges", {
    key: env.a.liveKey,
    body,
    headers: { "Idempotency-Key": key("live") },
  });
  expect(r.status).toBe(201);
  return r.body;
}

/** Pays cob `txid` at the simulator (its callback awaited); returns the simulator's Pix. */
export async function payAtSim(env: LiveEnv, txid: string, extra: Record<string, unknown> = {}) {
  const p = await env.sim.control("POST", `/_sim/cob/${txid}/pay`, {
    pagador: { nome: "Pagador Teste", cpf: validCpf() },
    wait_callback: true,
    ...extra,
  });
  expect(p.status).toBe(200);
  return p.body.pix as { endToEndId: string; txid: string; valor: string; [k: string]: unknown };
}

/** A live charge paid through the simulator and confirmed (status `paid`). */
export async function paidLive(env: LiveEnv, amount: number) {
  const c = await createLive(env, { amount });
  const pix = await payAtSim(env, c.pix.txid);
  await env.h.deps.jobs.drain();
  expect((await charge(env, c.id)).status).toBe("paid");
  return { charge: c, pix, rawId: String(c.id).slice(3) };
}

export const charge = async (env: LiveEnv, id: string) =>
  (await env.h.call("GET", `/v1/charges/${id}`, { key: env.a.liveKey })).body;

/** Live balance (pending + available), centavos. */
export async function balance(env: LiveEnv): Promise<number> {
  const b = await getBalance(env.h.deps.store.read, env.a.accountId, true, "BRL");
  return b.pending + b.available;
}

/** Moves the simulator's clock and Cofre's by `seconds`, running Cofre's jobs due on the way. */
export async function advance(env: LiveEnv, seconds: number): Promise<void> {
  env.fx.clock.advance(seconds);
  await advanceClock(env.h.clock, env.h.deps.jobs, seconds);
}

/** Events of type `type` stored for raw transaction `rawId`, oldest first (rows as stored: snake_case columns). */
export function eventsOf(env: LiveEnv, rawId: string, type: string) {
  return testDb(env.h.deps).all<{ id: string; type: string; body: string; created_at: number }>(
    "select * from events where type = ? and transaction_id = ? order by created_at, id",
    type,
    rawId,
  );
}

/** The devoluções the simulator holds for Pix `e2e` (its `GET /pix/{e2eid}`). */
export async function simDevolucoes(env: LiveEnv, e2e: string): Promise<Record<string, unknown>[]> {
  let r = await env.sim.api("GET", `/pix/${e2e}`);
  if (r.status === 401 && (await env.sim.login()).status === 200) r = await env.sim.api("GET", `/pix/${e2e}`);
  expect(r.status).toBe(200);
  return (r.body.devolucoes ?? []) as Record<string, unknown>[];
}

/** The ledger recomputed from its journal agrees with every balance. */
export async function expectLedgerClean(env: LiveEnv): Promise<void> {
  const report = await verifyLedger(env.h.deps.store.read);
  expect(report.mismatches).toEqual([]);
  expect(report.ok).toBe(true);
}
