/**
 * The `bcb_pix_v2` PaymentProvider (issue 14 §3; extensions.md "Live Pix over the BCB API Pix
 * (v2)"): Pix through a PSP that implements the BCB API Pix v2, one instance per connection.
 * Flows served now: reserve (the txid, chosen before the call and kept in the domain's durable
 * create intent), create (`PUT /cob/{txid}`; pending with the first poll, polling.ts; a resumed
 * reservation first asks `GET /cob/{txid}`: found -> that cob, no second PUT; 404 -> PUT), status
 * query (`GET /pix/{e2eid}` when a callback or sweep named the Pix, else or when that does not
 * confirm: `GET /cob/{txid}`), cancel (`PATCH /cob/{txid}`), reading a callback `{pix: [...]}` as
 * hints (devoluções named in a callback are hints too), listing received Pix
 * (`GET /pix?inicio=&fim=`, paginated) for the sweep, and devoluções: refunds and the return of a
 * Pix that must go back (`PUT|GET /pix/{e2eid}/devolucao/{id}`; their status table is in
 * devolucao.ts).
 * The `efi` flavour (extensions.md "Pix send through a PSP: connection type `efi`") is the same
 * provider with `api_url` = Efí's origin (the client puts `/v2` before the standard's paths) plus
 * Pix send (`send`/`sendStatus`, send.ts, its status table there) and cashout refunds (no
 * strategy or `cashout` -> a send, cashout.ts; `devolution` -> a devolução); a connection's sends
 * run one at a time per process (Efí's advice), its other calls as before; reconciliation and live
 * MED read its sent Pix and infractions and forward defences (reconcile.ts). In every flavour a
 * callback entry with `gnExtras.idEnvio` names a Pix we sent: its id goes to `sendIds`, never to
 * the received payments.
 *
 * Status of a named Pix (`GET /pix/{e2eid}`): found with our txid and a valid valor -> settled
 * (paidAt = `horario`); 404, another txid (a forged or foreign hint) -> ignored, `GET /cob` decides.
 *
 * Status table (cob `status`, OpenAPI `CobStatus`, and our outcome):
 *   ATIVA, before `calendario.criacao + expiracao`  -> pending, checkAt = the next poll
 *   ATIVA, at or after it                          -> expired (nobody paid; the PSP confirms)
 *   CONCLUIDA (with `pix[]`)                       -> settled (amount = first Pix `valor`,
 *                                                     end-to-end id, payer from `pagador` if given,
 *                                                     paidAt = its `horario`); a `valor` other
 *                                                     than the charge's fails the charge and the
 *                                                     Pix goes back (a concluded cob takes no more
 *                                                     payment; settlement.ts)
 *   REMOVIDA_PELO_USUARIO_RECEBEDOR                -> rejected, code REMOVIDA_PELO_USUARIO_RECEBEDOR
 *   REMOVIDA_PELO_PSP                              -> rejected, code REMOVIDA_PELO_PSP
 * Failures (client.ts results): timeout, network, 429 and 5xx -> retryable (create -> 503);
 * auth_failed -> auth_failed; other 4xx -> rejected on create and cancel (code = the problem's
 * name, e.g. CobOperacaoInvalida), invalid on a status query (nothing changes).
 */
import { cobTxidFor } from "../cob-txid";
import type {
  CreateOutcome,
  NotificationItem,
  PaymentListOutcome,
  ReceivedPix,
  PaymentOutcome,
  PaymentProvider,
  ProviderContext,
  RefundRecord,
  SendOutcome,
  TransactionRow,
} from "../../domain/providers/types";
import type { BcbPixClient } from "./client";
import { LIST_PAGE_SIZE, MAX_LIST_PAGES, rfc3339, settledOf, type PixAnswer, type PixListAnswer } from "./pix";
import { nextPollAt } from "./polling";
import { failureOf } from "./failures";
import { DEVOLUCAO_ID_RE, devolucaoValor, getDevolucao, planDevolucao, putDevolucao } from "./devolucao";
import { cobBody, createdOutcome, resumedOutcome, type CobAnswer } from "./cob";
import { getSend, ID_ENVIO_RE, putSend } from "./send";
import { Limiter } from "./limiter";
import { cashoutSend, planCashout, refundOutcomeOfSend } from "./cashout";
import { listInfractions, listSends, receivedOf, submitDefense } from "./reconcile";

export { MAX_SOLICITACAO } from "./cob";

export interface BcbProviderOptions {
  /** The connection's id, stored on the charges it creates (`transactions.provider_connection_id`). */
  connectionId: string;
  /**
   * `bcb_pix_v2` (default): the standard only; `efi`: plus Pix send (send.ts) and cashout refunds
   * (cashout.ts) — the client adds `/v2` before the standard's paths.
   */
  flavour?: "bcb_pix_v2" | "efi";
  /** The connection's receiving key (`chave`). */
  pixKey: string;
  /** The connection's pooled client (opened on first use). */
  client: () => Promise<BcbPixClient>;
}

/** `pending`, with the next poll when polling is not over. */
function pendingOf(tx: TransactionRow, now: number): PaymentOutcome {
  const at = nextPollAt(tx.createdAt, tx.expiresAt, now);
  return at === undefined ? { status: "pending" } : { status: "pending", checkAt: at };
}

/**
 * The `gnExtras.idEnvio` of an Efí callback entry about a Pix we sent (`tipo: SOLICITACAO`), or null for a received
 * Pix.
 */
function idEnvioOf(p: { gnExtras?: unknown }): string | null {
  const id = (p.gnExtras as { idEnvio?: unknown } | null | undefined)?.idEnvio;
  return typeof id === "string" && ID_ENVIO_RE.test(id) ? id : null;
}

/** A callback's Pix entry as a hint: its txid, end-to-end id and the ids of the devoluções it names. */
function hintOf(p: { txid?: unknown; endToEndId?: unknown; devolucoes?: unknown }): NotificationItem {
  const ids = Array.isArray(p.devolucoes)
    ? p.devolucoes
        .map((d) => (d as { id?: unknown } | null)?.id)
        .filter((id): id is string => typeof id === "string" && DEVOLUCAO_ID_RE.test(id))
    : [];
  return {
    ref: {
      ...(typeof p.txid === "string" ? { txid: p.txid } : {}),
      ...(typeof p.endToEndId === "string" ? { endToEndId: p.endToEndId } : {}),
    },
    ...(ids.length ? { refundIds: ids } : {}),
  };
}

export function createBcbPixProvider(opts: BcbProviderOptions): PaymentProvider {
  const efi = opts.flavour === "efi";
  // Efí advises one send at a time per account: this connection's sends (PUTs) queue here, in this process.
  const sends = new Limiter(1);
  const provider: PaymentProvider = {
    name: efi ? "efi" : "bcb_pix_v2",
    methods: new Set(["PIX"]),
    connectionId: opts.connectionId,

    reserve(_ctx, req) {
      return { txid: cobTxidFor(req.transaction), connectionId: opts.connectionId };
    },

    async create(ctx: ProviderContext, req): Promise<CreateOutcome> {
      const tx = req.transaction;
      const txid = req.reservation?.txid ?? cobTxidFor(tx);
      const client = await opts.client();
      if (req.reservation?.resumed) {
        // An earlier attempt may have created the cob: never PUT twice (issue 14 §3).
        const found = await client.call<CobAnswer>("GET", `/cob/${txid}`);
        if (found.kind === "ok") return resumedOutcome(ctx, req, opts.connectionId, txid, found.body ?? {});
        if (found.kind === "http_error" && found.status === 404 && req.reservation.lookupOnly)
          return { status: "absent" };
        if (found.kind !== "http_error" || found.status !== 404) {
          const f = failureOf(found, "invalid");
          // Whether the cob exists is unknown: keep the intent and try again later.
          return f.status === "invalid" ? { ...f, status: "retryable" } : f;
        }
      }
      const r = await client.call<CobAnswer>("PUT", `/cob/${txid}`, { body: cobBody(tx, opts.pixKey) });
      if (r.kind !== "ok") return failureOf(r, "rejected");
      return createdOutcome(
        req,
        opts.connectionId,
        txid,
        r.body ?? {},
        nextPollAt(tx.createdAt, tx.expiresAt, tx.createdAt),
      );
    },

    async queryStatus(ctx, req): Promise<PaymentOutcome> {
      const row = req.transaction;
      const txid = row.pixTxid;
      if (!txid) return { status: "invalid", code: "no_txid", message: "The charge has no cob txid." };
      const client = await opts.client();
      const e2e = req.memo?.endToEndId;
      if (typeof e2e === "string" && /^[a-zA-Z0-9]{1,40}$/.test(e2e)) {
        const named = await client.call<PixAnswer>("GET", `/pix/${e2e}`);
        if (named.kind === "ok") {
          const settled = named.body?.txid === txid ? settledOf(named.body) : null;
          if (settled) return settled;
        } else if (named.kind !== "http_error" || named.status >= 500 || named.status === 429)
          return failureOf(named, "invalid");
        // Unknown to the PSP or another cob's Pix: only a hint, the cob decides.
      }
      const r = await client.call<CobAnswer>("GET", `/cob/${txid}`);
      if (r.kind !== "ok") return failureOf(r, "invalid");
      const cob = r.body ?? {};
      const now = ctx.clock.nowMs();
      switch (cob.status) {
        case "CONCLUIDA":
          // Concluded but its Pix not listed yet: ask again soon.
          return settledOf(cob.pix?.[0]) ?? pendingOf(row, now);
        case "ATIVA": {
          const criacao = Date.parse(cob.calendario?.criacao ?? "");
          const expiracao = cob.calendario?.expiracao ?? 86400;
          if (Number.isFinite(criacao) && now >= criacao + expiracao * 1000) return { status: "expired" };
          return pendingOf(row, now);
        }
        case "REMOVIDA_PELO_USUARIO_RECEBEDOR":
        case "REMOVIDA_PELO_PSP":
          return { status: "rejected", code: cob.status, message: `The PSP reports the cob as ${cob.status}.` };
        default:
          return { status: "invalid", code: "unknown_status", message: `The PSP answered an unknown cob status.` };
      }
    },

    async listPayments(_ctx, req): Promise<PaymentListOutcome> {
      const client = await opts.client();
      const items: NotificationItem[] = [];
      const received: ReceivedPix[] = [];
      const query = {
        inicio: rfc3339(req.from),
        fim: rfc3339(req.to + 999),
        "paginacao.itensPorPagina": String(LIST_PAGE_SIZE),
      };
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const r = await client.call<PixListAnswer>("GET", "/pix", {
          query: { ...query, "paginacao.paginaAtual": String(page) },
        });
        if (r.kind !== "ok") return failureOf(r, "invalid");
        for (const p of r.body?.pix ?? []) {
          if (typeof p?.txid === "string" && typeof p.endToEndId === "string")
            items.push({ ref: { txid: p.txid, endToEndId: p.endToEndId } });
          const pix = receivedOf(p);
          if (pix) received.push(pix);
        }
        const pages = r.body?.parametros?.paginacao?.quantidadeDePaginas ?? 1;
        if (page + 1 >= pages) break;
      }
      return { status: "listed", items, received };
    },

    parseNotification(_ctx, req) {
      // The standard's callback `{pix: [...]}` (Inter reportedly sends the array itself): hints only.
      const b = req.body as { pix?: unknown } | unknown[] | null;
      const list = Array.isArray(b)
        ? b
        : Array.isArray((b as { pix?: unknown })?.pix)
          ? (b as { pix: unknown[] }).pix
          : null;
      if (!list) return { status: "invalid", code: "bad_callback", message: "The callback body has no pix list." };
      // An entry with `gnExtras.idEnvio` (Efí, `tipo: SOLICITACAO`) speaks of a Pix we SENT: a hint
      // for that payout or cashout refund, never a received payment.
      const entries = list.filter((p): p is Record<string, unknown> => !!p && typeof p === "object");
      const sendIds = [...new Set(entries.map(idEnvioOf).filter((id): id is string => id !== null))];
      const items = entries.filter((p) => idEnvioOf(p) === null).map(hintOf);
      return { status: "parsed", items, ...(sendIds.length ? { sendIds } : {}) };
    },

    planRefund(ctx, req) {
      // Efí sends Pix: no strategy (the contract's default) or cashout is a send; devolution stays one.
      if (efi && req.strategy !== "devolution") return planCashout(ctx, req);
      return planDevolucao(ctx, efi ? { ...req, destinationKey: undefined } : req);
    },
    async refund(ctx, { refund, transaction }) {
      // By what was planned, not the flavour: a cashout planned under efi stays a send (never a
      // devolução) if the connection was replaced since; a PSP without the route refuses it (FAILED).
      if (refund.strategy === "cashout") return refundOutcomeOfSend(await cashoutOf(ctx, refund, transaction, false));
      const call = {
        endToEndId: transaction.endToEndId,
        id: refund.providerRefundId,
        body: { valor: devolucaoValor(refund.amount) },
        requestedAt: refund.createdAt,
      };
      return putDevolucao(await opts.client(), ctx.clock.nowMs(), call);
    },
    async refundStatus(ctx, { refund, transaction }) {
      if (refund.strategy === "cashout") return refundOutcomeOfSend(await cashoutOf(ctx, refund, transaction, true));
      return getDevolucao(await opts.client(), ctx.clock.nowMs(), {
        endToEndId: transaction.endToEndId,
        id: refund.providerRefundId,
        requestedAt: refund.createdAt,
      });
    },
    async returnPayment(ctx, req) {
      const call = {
        endToEndId: req.endToEndId,
        id: req.returnId,
        body: { valor: devolucaoValor(req.amount), natureza: "ORIGINAL" as const },
        requestedAt: req.requestedAt,
      };
      return putDevolucao(await opts.client(), ctx.clock.nowMs(), call);
    },
    async returnStatus(ctx, req) {
      return getDevolucao(await opts.client(), ctx.clock.nowMs(), {
        endToEndId: req.endToEndId,
        id: req.returnId,
        requestedAt: req.requestedAt,
      });
    },

    async cancel(_ctx, req) {
      const txid = req.transaction.pixTxid;
      if (!txid) return { status: "settled" };
      const r = await (await opts.client()).call("PATCH", `/cob/${txid}`, {
        body: { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" },
      });
      return r.kind === "ok" ? { status: "settled" } : failureOf(r, "rejected");
    },
  };

  /** A cashout refund's send (`query`: its status only, GET by idEnvio), or invalid when it has no destination. */
  async function cashoutOf(
    ctx: ProviderContext,
    refund: RefundRecord,
    tx: TransactionRow,
    query: boolean,
  ): Promise<SendOutcome> {
    const req = cashoutSend(refund, tx, false);
    if (!req)
      return { status: "invalid", code: "no_destination", message: "The cashout refund has no destination key or id." };
    const client = await opts.client();
    return query
      ? getSend(client, ctx.clock.nowMs(), req)
      : sends.run(() => putSend(client, ctx.clock.nowMs(), opts.pixKey, req));
  }

  if (efi) {
    provider.send = async (ctx, req) => {
      const client = await opts.client();
      return sends.run(() => putSend(client, ctx.clock.nowMs(), opts.pixKey, req));
    };
    provider.sendStatus = async (ctx, req) => getSend(await opts.client(), ctx.clock.nowMs(), req);
    provider.listSends = async (_ctx, req) => listSends(await opts.client(), req);
    provider.listInfractions = async (_ctx, req) => listInfractions(await opts.client(), req);
    provider.submitDefense = async (_ctx, req) => submitDefense(await opts.client(), req);
  }
  return provider;
}
