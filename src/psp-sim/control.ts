/**
 * psp-sim control routes under `/_sim` (not part of the API Pix; same mTLS listener, no OAuth):
 *   GET    /_sim/state                               counts, faults, token TTL, clock
 *   GET    /_sim/cobs                                every cob {client_id, txid, status, revisao, valor}
 *   POST   /_sim/cob/{txid}/pay                      {valor?, pagador?: {nome, cpf|cnpj}, infoPagador?,
 *                                                    horario?, wait_callback?: true} -> {pix, callback}
 *   POST   /_sim/cob/{txid}/remove                   status REMOVIDA_PELO_PSP -> the cob
 *   POST   /_sim/pix/{e2eid}/devolucao/{id}/settle   DEVOLVIDO -> {devolucao, callback}
 *   POST   /_sim/pix/{e2eid}/devolucao/{id}/fail     {motivo?} NAO_REALIZADO -> {devolucao, callback}
 *   GET    /_sim/sends                               every Efí send {client_id, ...the GET's view}
 *   POST   /_sim/sends/{idEnvio}/settle              REALIZADO -> {send, callback}
 *   POST   /_sim/sends/{idEnvio}/fail                {codigo?: "AC03", motivo?} NAO_REALIZADO (valor back
 *                                                    in the balance) -> {send, callback}
 *   POST   /_sim/sends/results                       {mode: "bands"|"settle"|"manual"}: how new sends end
 *   POST   /_sim/balance                             {valor: "123.45"} set a client's balance -> {client_id, saldo}
 *   POST   /_sim/callbacks/drop                      {count}: drop the next N callbacks
 *   GET    /_sim/callbacks                           every callback attempt
 *   POST   /_sim/faults/errors                       {status?: 500|503|504 (503), count?: 1, match?: "",
 *                                                    after?: false}
 *   POST   /_sim/faults/latency                      {ms, count?: (until cleared), match?: "", after?: false}
 *                                                    (after: the operation takes effect, then the answer waits)
 *   POST   /_sim/faults/auth                         {count?: 1}: refuse the next N token requests
 *                                                    (401 invalid_client, as for a wrong secret)
 *   POST   /_sim/faults/block-document               {document}: Efí sends to this CPF/CNPJ answer 400
 *                                                    documento_bloqueado (until the faults are cleared)
 *   GET    /_sim/faults, DELETE /_sim/faults         read / clear every fault
 *   POST   /_sim/tokens/expire                       {ttl_seconds?}: expire every token now (and set
 *                                                    the lifetime of new ones)
 *   POST   /_sim/clock/advance                       {seconds}: move the simulator's clock
 *   POST   /_sim/clients                             {name?, pix_key?}: one more client (receiver) ->
 *                                                    201 its operator body (as pix-provider.json)
 * Reconciliation (control-recon.ts, efi-med.ts; a day that does not match Cofre):
 *   POST   /_sim/pix/receive                         {valor, horario?, pagador?}: a Pix to the client's key
 *                                                    with no cob (Cofre never hears of it) -> 201 {pix}
 *   POST   /_sim/pix/{e2eid}/amend                   {valor?, horario?}: the PSP's record of a Pix holds another
 *                                                    amount (or time: listed on another day)
 *   POST   /_sim/sends/record                        {valor, chave?, horario?}: a REALIZADO send Cofre never
 *                                                    asked for (no callback) -> 201 {send}
 *   POST   /_sim/sends/{idEnvio}/amend               {valor}: the PSP's record of a send holds another amount
 * MED infractions (control-recon.ts, efi-med.ts):
 *   GET    /_sim/infractions                         every infraction {client_id, ...Efí's view}
 *   POST   /_sim/infractions                         {endToEndId, valor?: "12.34" (default the Pix's),
 *                                                    razao?, tipoSituacao?: "golpe"} -> 201 {infracao}; an
 *                                                    end-to-end id the PSP never received needs ?client_id=
 *                                                    or takes the first client
 *   POST   /_sim/infractions/{id}/accept|reject|cancel  ACEITA | REJEITADA | CANCELADA_EFI -> {infracao}
 * `?client_id=` picks the client when a txid or idEnvio exists at several (and the client of
 * `/_sim/balance`, default the first one). Errors: the `Problema` shape,
 * 400 `urn:psp-sim:error:ControleInvalido`, 404 standard names, 409 `...:EstadoInvalido`.
 */
import { cobAmount, cobView } from "./cob";
import type { Reply, SimEnv } from "./core";
import { FAULT_STATUSES, type FaultStatus } from "./faults";
import { formatValor, parseRfc3339, parseValor, rfc3339 } from "./format";
import { endDevolucao } from "./devolucao";
import { balanceOf, endSend, SEND_RESULTS, sendView, type SendResults } from "./efi";
import { payCob, readPagador } from "./pix";
import { devolucaoView, pixView } from "./pix-view";
import { problem, simProblem } from "./problems";
import type { CallbackOutcome } from "./callbacks";
import { randomUUID } from "node:crypto";
import { clientKeys } from "./core";
import { RECONCILIATION_ROUTES } from "./control-recon";
import { body, findPix, findSend, type ControlCtx, type Handler } from "./control-shared";
import { DEFAULT_RECEIVER_NAME, newClient, type PixProviderBody } from "./setup";

function count(v: unknown, name: string, min: number, max: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
    throw simProblem("ControleInvalido", `${name} must be an integer from ${min} to ${max}`);
  return v;
}

function findCob(ctx: ControlCtx) {
  const txid = ctx.params.txid!;
  const clientId = ctx.query.get("client_id");
  const rows = ctx.env.store.cobsByTxid(txid).filter((r) => clientId === null || r.client_id === clientId);
  if (rows.length === 0) throw problem("CobNaoEncontrado", `Cobrança não encontrada para o txid ${txid}.`);
  if (rows.length > 1) throw simProblem("ControleInvalido", `txid ${txid} exists at several clients; add ?client_id=`);
  return { cob: rows[0]!, client: ctx.env.store.client(rows[0]!.client_id)! };
}

async function maybeWait(
  env: SimEnv,
  wait: unknown,
  task: () => Promise<CallbackOutcome>,
): Promise<CallbackOutcome | { status: "scheduled" }> {
  if (wait !== undefined && typeof wait !== "boolean")
    throw simProblem("ControleInvalido", "wait_callback must be a boolean");
  if (wait === false) {
    env.background(task);
    return { status: "scheduled" };
  }
  return task();
}

async function pay(ctx: ControlCtx): Promise<Reply> {
  const b = body(ctx, ["valor", "pagador", "infoPagador", "horario", "wait_callback"]);
  const { cob, client } = findCob(ctx);
  const valor = b.valor === undefined ? cobAmount(cob) : parseValor(b.valor);
  if (valor === null || valor === 0)
    throw simProblem("ControleInvalido", 'valor must be a positive amount like "12.34"');
  if (b.infoPagador !== undefined && (typeof b.infoPagador !== "string" || b.infoPagador.length > 140))
    throw simProblem("ControleInvalido", "infoPagador must be a string of at most 140 characters");
  const horarioMs = b.horario === undefined ? undefined : parseRfc3339(b.horario);
  if (horarioMs === null) throw simProblem("ControleInvalido", "horario must be an RFC 3339 date-time");
  const pix = payCob(ctx.env, client, cob, {
    valor,
    pagador: readPagador(b.pagador),
    ...(b.infoPagador !== undefined ? { infoPagador: b.infoPagador as string } : {}),
    ...(horarioMs !== undefined ? { horarioMs } : {}),
  });
  const callback = await maybeWait(ctx.env, b.wait_callback, () =>
    ctx.env.callbacks.notifyPix(client.client_id, pix.e2eid),
  );
  return { status: 200, body: { pix: pixView(ctx.env, pix), callback } };
}

function remove(ctx: ControlCtx): Reply {
  body(ctx, []);
  const { cob, client } = findCob(ctx);
  if (cob.status !== "ATIVA") throw simProblem("EstadoInvalido", `cob ${cob.txid} is ${cob.status}`);
  const next = { ...cob, status: "REMOVIDA_PELO_PSP" as const, updated_ms: ctx.env.clock.nowMs() };
  ctx.env.store.putCob(next);
  return { status: 200, body: cobView(ctx.env, client, next, true) };
}

function finish(status: "DEVOLVIDO" | "NAO_REALIZADO"): Handler {
  return async (ctx) => {
    const b = body(ctx, status === "NAO_REALIZADO" ? ["motivo", "wait_callback"] : ["wait_callback"]);
    if (b.motivo !== undefined && (typeof b.motivo !== "string" || b.motivo.length > 140))
      throw simProblem("ControleInvalido", "motivo must be a string of at most 140 characters");
    const pix = findPix(ctx);
    const id = ctx.params.id!;
    const motivo =
      status === "NAO_REALIZADO" ? ((b.motivo as string | undefined) ?? "Devolução não realizada (simulador)") : null;
    endDevolucao(ctx.env, pix, id, status, motivo);
    const callback = await maybeWait(ctx.env, b.wait_callback, () =>
      ctx.env.callbacks.notifyPix(pix.client_id, pix.e2eid),
    );
    return { status: 200, body: { devolucao: devolucaoView(ctx.env.store.devolucao(pix.e2eid, id)!), callback } };
  };
}

function finishSend(to: "REALIZADO" | "NAO_REALIZADO"): Handler {
  return async (ctx) => {
    const b = body(ctx, to === "NAO_REALIZADO" ? ["codigo", "motivo", "wait_callback"] : ["wait_callback"]);
    if (b.codigo !== undefined && (typeof b.codigo !== "string" || !/^[A-Za-z0-9_]{1,40}$/.test(b.codigo)))
      throw simProblem("ControleInvalido", "codigo must be 1-40 letters, digits or _");
    if (b.motivo !== undefined && (typeof b.motivo !== "string" || b.motivo.length > 140))
      throw simProblem("ControleInvalido", "motivo must be a string of at most 140 characters");
    const row = findSend(ctx);
    const erro =
      to === "NAO_REALIZADO"
        ? {
            codigo: (b.codigo as string | undefined) ?? "AC03",
            origem: "psp-sim",
            motivo: (b.motivo as string | undefined) ?? "Envio não realizado (simulador)",
          }
        : null;
    if (!endSend(ctx.env, row.client_id, row.id_envio, to, erro))
      throw simProblem("EstadoInvalido", `send ${row.id_envio} is ${row.status}`);
    const callback = await maybeWait(ctx.env, b.wait_callback, () =>
      ctx.env.callbacks.notifySend(row.client_id, row.id_envio),
    );
    return { status: 200, body: { send: sendView(ctx.env.store.send(row.client_id, row.id_envio)!), callback } };
  };
}

function setBalance(ctx: ControlCtx): Reply {
  const b = body(ctx, ["valor"]);
  const valor = parseValor(b.valor);
  if (valor === null) throw simProblem("ControleInvalido", 'valor must be an amount like "12.34"');
  const clientId = ctx.query.get("client_id") ?? ctx.env.store.clients()[0]?.client_id;
  if (!clientId || !ctx.env.store.client(clientId)) throw simProblem("ControleInvalido", "no such client");
  ctx.env.store.setBalance(clientId, valor);
  return { status: 200, body: { client_id: clientId, saldo: formatValor(valor) } };
}

function addClient(ctx: ControlCtx): Reply {
  const b = body(ctx, ["name", "pix_key"]);
  if (b.name !== undefined && (typeof b.name !== "string" || b.name.trim() === "" || b.name.length > 100))
    throw simProblem("ControleInvalido", "name must be 1-100 characters");
  if (b.pix_key !== undefined && (typeof b.pix_key !== "string" || b.pix_key.length === 0 || b.pix_key.length > 77))
    throw simProblem("ControleInvalido", "pix_key must be 1-77 characters");
  const key = (b.pix_key as string | undefined) ?? randomUUID();
  const { store } = ctx.env;
  const { row, secret } = newClient(
    (b.name as string | undefined) ?? DEFAULT_RECEIVER_NAME,
    key,
    ctx.env.clock.nowMs(),
  );
  store.tx(() => {
    if (store.clients().some((c) => clientKeys(c).includes(key)))
      throw simProblem("EstadoInvalido", `pix key ${key} already belongs to a client`);
    store.insertClient(row);
  });
  const out: PixProviderBody = { ...ctx.env.connection, client_id: row.client_id, client_secret: secret, pix_key: key };
  return { status: 201, body: out };
}

export const CONTROL_ROUTES: { method: string; path: string; handler: Handler }[] = [
  ...RECONCILIATION_ROUTES,
  {
    method: "GET",
    path: "/_sim/state",
    handler: ({ env }) => ({
      status: 200,
      body: {
        now: rfc3339(env.clock.nowMs()),
        counts: env.store.counts(),
        faults: env.faults.view(),
        token_ttl_seconds: env.tokenTtlSeconds,
        auto_settle: env.autoSettle,
        send_results: env.sendResults,
        balances: Object.fromEntries(
          env.store.clients().map((c) => [c.client_id, formatValor(balanceOf(env, c.client_id))]),
        ),
      },
    }),
  },
  {
    method: "GET",
    path: "/_sim/cobs",
    handler: ({ env }) => ({
      status: 200,
      body: {
        cobs: env.store.allCobs().map((c) => ({
          client_id: c.client_id,
          txid: c.txid,
          status: c.status,
          revisao: c.revisao,
          valor: formatValor(cobAmount(c)),
          criacao: rfc3339(c.created_ms),
        })),
      },
    }),
  },
  { method: "POST", path: "/_sim/cob/:txid/pay", handler: pay },
  { method: "POST", path: "/_sim/cob/:txid/remove", handler: remove },
  {
    method: "GET",
    path: "/_sim/sends",
    handler: ({ env }) => ({
      status: 200,
      body: { sends: env.store.allSends().map((s) => ({ client_id: s.client_id, ...sendView(s) })) },
    }),
  },
  { method: "POST", path: "/_sim/sends/:idEnvio/settle", handler: finishSend("REALIZADO") },
  { method: "POST", path: "/_sim/sends/:idEnvio/fail", handler: finishSend("NAO_REALIZADO") },
  {
    method: "POST",
    path: "/_sim/sends/results",
    handler: (ctx) => {
      const b = body(ctx, ["mode"]);
      if (!SEND_RESULTS.includes(b.mode as SendResults))
        throw simProblem("ControleInvalido", `mode must be one of ${SEND_RESULTS.join(", ")}`);
      ctx.env.sendResults = b.mode as SendResults;
      return { status: 200, body: { mode: ctx.env.sendResults } };
    },
  },
  { method: "POST", path: "/_sim/balance", handler: setBalance },
  { method: "POST", path: "/_sim/pix/:e2eid/devolucao/:id/settle", handler: finish("DEVOLVIDO") },
  { method: "POST", path: "/_sim/pix/:e2eid/devolucao/:id/fail", handler: finish("NAO_REALIZADO") },
  {
    method: "POST",
    path: "/_sim/callbacks/drop",
    handler: (ctx) => {
      const b = body(ctx, ["count"]);
      ctx.env.faults.dropCallbacks = count(b.count ?? 1, "count", 0, 1_000_000);
      return { status: 200, body: ctx.env.faults.view() };
    },
  },
  {
    method: "GET",
    path: "/_sim/callbacks",
    handler: ({ env }) => ({
      status: 200,
      body: {
        callbacks: env.store.callbacks().map((c) => ({
          id: c.id,
          client_id: c.client_id,
          url: c.url,
          status: c.status,
          http_status: c.http_status,
          error: c.error,
          body: JSON.parse(c.body),
          created_at: rfc3339(c.created_ms),
          sent_at: c.sent_ms === null ? null : rfc3339(c.sent_ms),
        })),
      },
    }),
  },
  {
    method: "POST",
    path: "/_sim/faults/errors",
    handler: (ctx) => {
      const b = body(ctx, ["status", "count", "match", "after"]);
      const status = (b.status ?? 503) as FaultStatus;
      if (!(String(status) in FAULT_STATUSES))
        throw simProblem("ControleInvalido", `status must be one of ${Object.keys(FAULT_STATUSES).join(", ")}`);
      if (b.match !== undefined && typeof b.match !== "string")
        throw simProblem("ControleInvalido", 'match must be a string such as "PUT /cob"');
      if (b.after !== undefined && typeof b.after !== "boolean")
        throw simProblem("ControleInvalido", "after must be a boolean");
      ctx.env.faults.errors.push({
        status,
        remaining: count(b.count ?? 1, "count", 1, 1_000_000),
        match: (b.match as string) ?? "",
        after: (b.after as boolean) ?? false,
      });
      return { status: 200, body: ctx.env.faults.view() };
    },
  },
  {
    method: "POST",
    path: "/_sim/faults/latency",
    handler: (ctx) => {
      const b = body(ctx, ["ms", "count", "match", "after"]);
      if (b.match !== undefined && typeof b.match !== "string")
        throw simProblem("ControleInvalido", "match must be a string");
      if (b.after !== undefined && typeof b.after !== "boolean")
        throw simProblem("ControleInvalido", "after must be a boolean");
      ctx.env.faults.latency.push({
        ms: count(b.ms, "ms", 1, 120_000),
        remaining: b.count === undefined ? null : count(b.count, "count", 1, 1_000_000),
        match: (b.match as string) ?? "",
        after: (b.after as boolean | undefined) ?? false,
      });
      return { status: 200, body: ctx.env.faults.view() };
    },
  },
  {
    method: "POST",
    path: "/_sim/faults/auth",
    handler: (ctx) => {
      const b = body(ctx, ["count"]);
      ctx.env.faults.authFailures = count(b.count ?? 1, "count", 1, 1_000_000);
      return { status: 200, body: ctx.env.faults.view() };
    },
  },
  {
    method: "POST",
    path: "/_sim/faults/block-document",
    handler: (ctx) => {
      const b = body(ctx, ["document"]);
      if (typeof b.document !== "string" || !/^(\d{11}|[0-9A-Z]{12}\d{2})$/.test(b.document))
        throw simProblem("ControleInvalido", "document must be a CPF (11 digits) or CNPJ (14)");
      ctx.env.faults.blockedDocuments.add(b.document);
      return { status: 200, body: ctx.env.faults.view() };
    },
  },
  { method: "GET", path: "/_sim/faults", handler: ({ env }) => ({ status: 200, body: env.faults.view() }) },
  {
    method: "DELETE",
    path: "/_sim/faults",
    handler: (ctx) => {
      body(ctx, []);
      ctx.env.faults.clear();
      return { status: 200, body: ctx.env.faults.view() };
    },
  },
  {
    method: "POST",
    path: "/_sim/tokens/expire",
    handler: (ctx) => {
      const b = body(ctx, ["ttl_seconds"]);
      if (b.ttl_seconds !== undefined) ctx.env.tokenTtlSeconds = count(b.ttl_seconds, "ttl_seconds", 1, 31_536_000);
      const expired = ctx.env.store.expireTokens(ctx.env.clock.nowMs());
      return { status: 200, body: { expired, token_ttl_seconds: ctx.env.tokenTtlSeconds } };
    },
  },
  { method: "POST", path: "/_sim/clients", handler: addClient },
  {
    method: "POST",
    path: "/_sim/clock/advance",
    handler: (ctx) => {
      const b = body(ctx, ["seconds"]);
      ctx.env.clock.advance(count(b.seconds, "seconds", 1, 31_536_000));
      return { status: 200, body: { now: rfc3339(ctx.env.clock.nowMs()) } };
    },
  },
];
