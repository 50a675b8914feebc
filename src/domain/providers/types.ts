/**
 * The provider boundary (Hyperswitch connector style): one PaymentProvider per acquirer/PSP owns
 * every flow it serves (create, status query, notification parsing, refund, refund status,
 * cancel) and answers each with a typed outcome; its own status vocabulary is mapped to these
 * outcomes in one table in its module header. Providers never see the database: they receive a
 * ProviderContext (config, clock; an injected fetch for live adapters) and the rows they act on,
 * do their network calls outside any database transaction, and return outcomes that the domain
 * records in a short transaction through the one function per resource
 * (`applySettlementNotice` for transactions, `applyRefundStatus` for refunds).
 * State a provider must keep between calls is handed back as an intent ("pending, check again at
 * `checkAt` with `memo`") that the domain persists in a durable job, or lives behind a small
 * storage interface the provider receives (e.g. SandboxFaultStore), implemented in the domain.
 * Declared here, in the domain: the adapters under src/providers/ import it, the domain imports
 * nothing from them.
 */
import type { Config } from "../../config";
import type { AccountRules } from "../accounts/settings";
import type { PaymentMethod } from "../charges/model";
import type { Clock } from "../../lib/clock";
import type { RefundRow, TransactionRow as StoredTransaction } from "../../store/rows";
import type { SendHints, SendListOutcome, SendOutcome, SendRequest } from "./send-types";

export type { SendDestination, SendHints, SendListOutcome, SendOutcome, SendRequest, SentPix } from "./send-types";
export type { FaultMode, SandboxFaultStore, SandboxPayerEvent } from "./sandbox-contract";

/** A transaction as stored (src/store/rows/): what providers read, never write. */
export type TransactionRow = StoredTransaction;
/** A refund as stored (src/store/rows/). */
export type RefundRecord = RefundRow;

/** The HTTP client a live adapter calls its PSP with (the global fetch's call shape). */
export type HttpFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What every provider call receives (built once per deps): never the database. */
export interface ProviderContext {
  config: Config;
  clock: Clock;
  /** HTTP client of live adapters (tests inject a fake; default the global fetch). */
  fetch: HttpFetch;
}

/** JSON-serialisable state a provider asks the domain to hand back on its next status query. */
export type ProviderMemo = Record<string, string | number | boolean | null>;

/**
 * A failure of any flow. `rejected`: the provider refused for good (charge created `failed`,
 * payment declined, refund FAILED); `retryable`: timeout, 5xx, unreachable (create -> 503, jobs
 * retry; `retryAt` epoch ms when the provider said when); `auth_failed`: our credentials were
 * refused (create -> 503, logged; jobs retry later); `not_supported`: the provider does not
 * serve this flow or option (create -> 422, refund -> 400 `REFUND_NOT_SUPPORTED`); `invalid`:
 * the input is wrong for this provider (400 `invalid_request` on `param`, nothing changes).
 */
export interface ProviderFailure {
  status: "rejected" | "retryable" | "auth_failed" | "not_supported" | "invalid";
  /** Provider's own error code (e.g. `sandbox_rejected`), surfaced as `metadata.failure.providerErrorCode`. */
  code: string;
  /** Human text, safe to show the merchant (never a secret). */
  message: string;
  /** Public failure reason (`metadata.failure.reason`) of a rejected payment, e.g. `card_declined`. */
  reason?: string;
  /** Request field an `invalid` failure is about. */
  param?: string;
  /** Earliest time to try again (epoch ms), for `retryable`. */
  retryAt?: number;
}

/** Column values a create sets on the transaction row (Pix BR Code, txid, location, expiry). */
export type CreatedColumns = Partial<
  Pick<TransactionRow, "pixBrCode" | "pixTxid" | "pixLocation" | "expiresAt" | "providerConnectionId">
>;

export interface CreateRequest {
  /** The transaction as it will be inserted (id, amount, currency, customer, expiresAt...). Read only. */
  transaction: TransactionRow;
  /** The methods of the transaction this provider serves, in the order asked. */
  methods: readonly PaymentMethod[];
  settings: AccountRules;
  /** Receiver shown to the payer (BR Code fields 59/60). */
  merchant: { name: string; city: string };
  /**
   * The PSP id this create must use (from `reserve`, stored in the domain's durable create intent).
   * `resumed` true: an earlier attempt may have created it (a retry or the recovery job), so the
   * provider asks the PSP first (`GET /cob/{txid}`) and creates only when it does not exist.
   */
  reservation?: Reservation;
}

/** What a provider with `reserve` will create at the PSP (bcb_pix_v2: the cob txid). */
export interface Reservation {
  /** `[a-zA-Z0-9]{26,35}` for a cob. */
  txid: string;
  /** The provider connection that will create it (`transactions.provider_connection_id`). */
  connectionId: string;
  resumed: boolean;
  /**
   * Recovery only (resumed): never create; when the PSP has no such object the outcome is
   * `absent` (the domain drops the intent).
   */
  lookupOnly?: boolean;
}

/**
 * Create: `pending` = ready for the payer (WAITING_PAYMENT), with what to store (and, for a live
 * PSP, `checkAt` epoch ms + `memo`: the first status check the domain queues with the charge);
 * or a failure.
 */
export type CreateOutcome =
  | {
      status: "pending";
      columns?: CreatedColumns;
      checkAt?: number;
      memo?: ProviderMemo;
      /** Public details per method, merged into `method_details[<METHOD>]`. */
      details?: Partial<Record<PaymentMethod, Record<string, unknown>>>;
    }
  /** A `lookupOnly` reservation the PSP does not know (it was never created). */
  | { status: "absent" }
  | ProviderFailure;

/**
 * Where a payment stands at the provider. `settled`: paid (amount as the payer paid it; the domain
 * returns a different amount and applies the payer lock); `pending`: nothing final yet
 * (`processing` true = in flight, PROCESSING; `checkAt` + `memo` = query again then);
 * `rejected` (a failure with `reason`): declined; `expired`: the provider confirms nobody paid.
 */
export type PaymentOutcome =
  | {
      status: "settled";
      method: PaymentMethod;
      /** Minor units the payer paid. */
      amount: number;
      /** Pix end-to-end id (generated with the sandbox ISPB when absent). */
      endToEndId?: string;
      payerTaxId?: string | null;
      payerName?: string | null;
      /** false when the bank did not disclose the payer's document. */
      disclosed?: boolean;
      /**
       * When the payer paid (epoch ms; a PSP's Pix `horario`), if the provider knows it: a payment
       * made before `expires_at` but seen after it is not late. Absent = now.
       */
      paidAt?: number;
      /**
       * Facts of the payment merged into `method_details[<method>]` (never shown as such: views
       * allowlist what they show), e.g. a card's `{brand, last4, installments, providerFee,
       * paymentIntent}` (extensions.md "Live cards and boletos through Stripe").
       */
      details?: Record<string, unknown>;
    }
  | { status: "pending"; processing?: boolean; checkAt?: number; memo?: ProviderMemo }
  | { status: "expired" }
  | (ProviderFailure & { method?: PaymentMethod });

export interface StatusRequest {
  transaction: TransactionRow;
  /** The memo of the `pending` outcome that asked for this query, if any. */
  memo?: ProviderMemo;
}

/** A payment a notification speaks of: by our transaction id, the cob txid or the end-to-end id. */
export interface NotificationItem {
  ref: { transactionId?: string; txid?: string; endToEndId?: string };
  /**
   * The method the item is about, when the notification says (a card provider's card or boleto event); absent = the
   * callback's.
   */
  method?: PaymentMethod;
  /**
   * The status, only when the notification's channel is trusted (the in-process sandbox). Absent:
   * the body is only a hint, and the domain confirms with `queryStatus` before any change.
   */
  outcome?: PaymentOutcome;
  /**
   * Provider ids of refunds or returns of this payment that the notification says moved (a Pix's
   * `devolucoes[].id`): hints only, each confirmed with `refundStatus` / `returnStatus`.
   */
  refundIds?: string[];
}

/**
 * A card provider's notification may speak of disputes (chargebacks): `disputeIds` lists the
 * provider's dispute ids, hints only, each confirmed with `disputeStatus`.
 */
export interface DisputeHints {
  disputeIds?: string[];
}

export type NotificationOutcome =
  | ({ status: "parsed"; items: NotificationItem[] } & SendHints & DisputeHints)
  | ProviderFailure;

/**
 * Where a card dispute stands at the provider (retrieved, never read from a notification):
 * `open` (the issuer took the money back pending the outcome), `won` (returned to the merchant),
 * `lost` (the chargeback stands). `transactionId` is Cofre's transaction the disputed payment
 * belongs to; `amount` minor units disputed.
 */
export type DisputeOutcome =
  | {
      status: "open" | "won" | "lost";
      disputeId: string;
      transactionId: string | null;
      amount: number;
      reason: string | null;
      respondBy: number | null;
    }
  | ProviderFailure;

export interface NotificationRequest {
  /** The callback's parsed JSON body (or the sandbox's SandboxPayerEvent). */
  body: unknown;
  /** The transaction the notification is addressed to, when the route knows it (sandbox helpers). */
  transaction?: TransactionRow;
}

export interface RefundPlanRequest {
  transaction: TransactionRow;
  /** The id the refund will be stored under (`re_...`), known before the plan (a devolução id derives from it). */
  refundId: string;
  method: PaymentMethod;
  /** As asked (undefined = the provider's default). */
  strategy?: "devolution" | "cashout";
  /** A cashout's destination key, as asked. */
  destinationKey?: string;
}

/**
 * Before a refund is stored (synchronous, no network): `pending` = accepted, submit it at
 * `checkAt` (epoch ms), with the effective strategy (null for non-Pix methods) and the provider's
 * id of the refund when it picks one up front (a Pix devolution id); else a failure
 * (`not_supported` -> 400 `REFUND_NOT_SUPPORTED`).
 */
export type RefundPlan =
  | { status: "pending"; checkAt: number; strategy: "devolution" | "cashout" | null; providerRefundId: string | null }
  | ProviderFailure;

export interface RefundRequest {
  refund: RefundRecord;
  transaction: TransactionRow;
}

/**
 * Where a refund stands: `settled` (REFUNDED); `pending` (`inProgress` false = PENDING, true =
 * IN_PROGRESS; query again at `checkAt`); `rejected` (FAILED, balance restored); other failures
 * leave it as it is and are retried.
 */
export type RefundOutcome =
  | { status: "settled" }
  | { status: "pending"; inProgress: boolean; checkAt?: number }
  | ProviderFailure;

/**
 * A received payment to give back whole to its payer (a Pix that must go back: paid a different
 * amount, by another payer under the payer lock, or after the charge expired or was cancelled):
 * `returnId` is the provider's id of the return, picked by the domain and stored before the call
 * (a Pix devolution id `D...`, `[a-zA-Z0-9]{1,35}`), so every call about it is idempotent.
 */
export interface PaymentReturnRequest {
  transaction: TransactionRow;
  /** End-to-end id of the Pix to return. */
  endToEndId: string;
  returnId: string;
  /** Minor units: the whole amount the payer paid. */
  amount: number;
  /** When the domain recorded the return (epoch ms): later checks back off from it. */
  requestedAt: number;
}

/** Cancel: `settled` = the provider will no longer accept a payment (the domain cancels). */
export type CancelOutcome = { status: "settled" } | ProviderFailure;

/**
 * Payments a provider received in a time window (a PSP's `GET /pix?inicio=&fim=`): each item is a
 * hint, confirmed like a notification's; or a failure.
 */
export type PaymentListOutcome =
  | { status: "listed"; items: NotificationItem[]; received?: ReceivedPix[] }
  | ProviderFailure;

/** A window of payment times, epoch ms (inclusive). */
export interface PaymentListRequest {
  from: number;
  to: number;
}

/**
 * A Pix the PSP received, as its list reports it (reconciliation, extensions.md "Statement,
 * exports and reconciliation"): `txid` null for a Pix to the key without a cob; `amount` centavos;
 * `at` its `horario` (epoch ms); `returns` its devoluções (status mapped as refunds are).
 */
export interface ReceivedPix {
  endToEndId: string;
  txid: string | null;
  amount: number;
  at: number;
  returns: { id: string; amount: number; status: "IN_PROGRESS" | "REFUNDED" | "FAILED" }[];
}

/**
 * A MED infraction at the PSP (Efí's `GET /v2/gn/infracoes`; extensions.md "Live MED from the
 * PSP"): `amount` the claimed `valor` (centavos), `createdAt` its `criadoEm`, `deadline` its
 * `dadosAnalise.prazoFinalizacao` (epoch ms, null when absent), `reason` its `razao`/`tipoSituacao`.
 */
export interface PspInfraction {
  id: string;
  endToEndId: string;
  amount: number;
  status: "ABERTA" | "EM_DEFESA" | "ACEITA" | "REJEITADA" | "CANCELADA_EFI";
  reason: string | null;
  kind: string | null;
  createdAt: number;
  deadline: number | null;
}

/** Infractions listed in a window, or a failure. */
export type InfractionListOutcome = { status: "listed"; infractions: PspInfraction[] } | ProviderFailure;

/** The merchant's defence of infraction `infractionId`, forwarded by the operator. */
export interface DefenseRequest {
  infractionId: string;
  /** The merchant's appeal reason (Efí's `justificativa`). */
  justification: string;
}

type MaybeAsync<T> = T | Promise<T>;

/** One acquirer/PSP. Every flow may be synchronous (sandbox) or asynchronous (network). */
export interface PaymentProvider {
  /** e.g. `sandbox`, `bcb_pix_v2`. */
  readonly name: string;
  readonly methods: ReadonlySet<PaymentMethod>;
  /**
   * Live PSPs only (the sandbox has none, so its creates write no intent): picks, without any
   * network call, what `create` will create, so the domain can persist it before the call and
   * reuse it on a retry or a recovery (one cob per charge under retries and crashes).
   */
  reserve?(ctx: ProviderContext, req: Pick<CreateRequest, "transaction">): Omit<Reservation, "resumed">;
  /** Finalises `req.methods` of a new transaction (PUT /cob/{txid} for bcb_pix_v2). */
  create(ctx: ProviderContext, req: CreateRequest): MaybeAsync<CreateOutcome>;
  /** Asks the provider where a payment stands (GET /cob/{txid}, GET /pix/{e2eid}). */
  queryStatus(ctx: ProviderContext, req: StatusRequest): MaybeAsync<PaymentOutcome>;
  /** Reads a notification (no network, no state): hints to confirm, or trusted statuses. */
  parseNotification(ctx: ProviderContext, req: NotificationRequest): NotificationOutcome;
  /** Decides whether and how a refund can be made (before anything is stored). */
  planRefund(ctx: ProviderContext, req: RefundPlanRequest): RefundPlan;
  /** Submits a stored refund; idempotent per refund id (PUT /pix/{e2eid}/devolucao/{id}). */
  refund(ctx: ProviderContext, req: RefundRequest): MaybeAsync<RefundOutcome>;
  /** Asks where a submitted refund stands (GET /pix/{e2eid}/devolucao/{id}). */
  refundStatus(ctx: ProviderContext, req: RefundRequest): MaybeAsync<RefundOutcome>;
  /** Withdraws a waiting charge (PATCH /cob/{txid} REMOVIDA_PELO_USUARIO_RECEBEDOR). */
  cancel(ctx: ProviderContext, req: StatusRequest): MaybeAsync<CancelOutcome>;
  /**
   * Returns a received payment whole (PUT /pix/{e2eid}/devolucao/{id}, natureza ORIGINAL), idempotent
   * per `returnId`; the outcome reads like a refund's (settled = returned, rejected = not returned).
   * Optional: a provider without it (the sandbox) only records the return.
   */
  returnPayment?(ctx: ProviderContext, req: PaymentReturnRequest): MaybeAsync<RefundOutcome>;
  /** Where a submitted return stands (GET /pix/{e2eid}/devolucao/{id}); present with returnPayment. */
  returnStatus?(ctx: ProviderContext, req: PaymentReturnRequest): MaybeAsync<RefundOutcome>;
  /** Where a card dispute stands (a card provider's `GET /v1/disputes/{id}`); optional: providers without disputes. */
  disputeStatus?(ctx: ProviderContext, req: { disputeId: string }): MaybeAsync<DisputeOutcome>;
  /** Lists the payments received in a window (GET /pix?inicio=&fim=), for the sweep; optional. */
  listPayments?(ctx: ProviderContext, req: PaymentListRequest): MaybeAsync<PaymentListOutcome>;
  /**
   * The stored provider connection this provider serves (`ppc_...`), or undefined for the
   * sandbox: the domain stores it on what it sends (payouts) so status queries reach the same
   * connection even after it is replaced.
   */
  readonly connectionId?: string;
  /**
   * Sends a Pix (payouts; Efí's `PUT /v3/gn/pix/{idEnvio}`), idempotent per `sendId`; optional:
   * a provider without it cannot pay out (a live payout answers 422).
   */
  send?(ctx: ProviderContext, req: SendRequest): MaybeAsync<SendOutcome>;
  /** Where a send stands (Efí's `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`); present with `send`. */
  sendStatus?(ctx: ProviderContext, req: SendRequest): MaybeAsync<SendOutcome>;
  /** Pix sent in a window (Efí's `GET /v2/gn/pix/enviados?inicio&fim`, paged), for reconciliation; optional. */
  listSends?(ctx: ProviderContext, req: PaymentListRequest): MaybeAsync<SendListOutcome>;
  /** MED infractions created in a window (Efí's `GET /v2/gn/infracoes?inicio&fim`, paged); optional. */
  listInfractions?(ctx: ProviderContext, req: PaymentListRequest): MaybeAsync<InfractionListOutcome>;
  /** Forwards a defence (Efí's `POST /v2/gn/infracoes/{id}/defesa`); present with listInfractions. */
  submitDefense?(ctx: ProviderContext, req: DefenseRequest): MaybeAsync<{ status: "settled" } | ProviderFailure>;
}

/** Thrown inside a provider module for a failure it then returns as an outcome. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderFailure["status"],
    message: string,
    /** Provider's own error code. */
    readonly providerErrorCode: string,
  ) {
    super(message);
  }

  /** This error as a failure outcome. */
  toOutcome(): ProviderFailure {
    return { status: this.kind, code: this.providerErrorCode, message: this.message };
  }
}
