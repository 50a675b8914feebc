/**
 * createTransaction: the one creation path behind `POST /v1/charges`, `/v1/pix/charges`
 * (origin "charges", methods ["PIX"]) and `POST /v1/payments` (origin "payments").
 * Steps: provider per method from `deps.providers` (none -> 422), velocity guard (403 `fraud.*`),
 * for a live PSP a durable create intent in its own transaction (intents.ts; a retry of the key
 * resumes it), the provider's `create` outside any transaction (outcomes: pending -> WAITING_PAYMENT;
 * rejected -> created REFUSED with `metadata.failure`; retryable / auth_failed -> 503, nothing
 * stored; not_supported / invalid -> 422), then one transaction: insert, expiry sweep due by
 * `expires_at` (not for a live PSP's charge: its status checks confirm expiry), the first status
 * check a provider asked for (`checkAt`), `charge.created` events, idempotency response.
 * Storage: reads through `deps.store.read.charges`, writes in units of work (`deps.store.tx`).
 */
import type { Deps } from "../deps";
import { DomainError, invalidParam } from "../errors";
import type { Caller } from "../scope";
import { iso } from "../../lib/clock";
import { rawId } from "../../lib/ids";
import type {
  CreateOutcome,
  PaymentProvider,
  ProviderFailure,
  ProviderMemo,
  Reservation,
  TransactionRow,
} from "../providers/types";
import type { AccountRules } from "../accounts/settings";
import type { Claim } from "../idempotency/store";
import { emitTransition } from "./events";
import { ensureExpirySweep } from "./expiry";
import { failureBlock } from "./metadata";
import { scheduleStatusCheck } from "./outcomes";
import type { PaymentMethod, TransactionStatus } from "./model";
import { assertTransition } from "./transition";
import { dropIntent, findIntent, openIntent, type IntentView, type OpenIntent } from "./intents";
import { checkVelocity, velocityLimited } from "./velocity";

/** Longest Pix window (interface.md Limits: larger values are capped). */
export const MAX_EXPIRES_IN = 86400;
/** Sandbox receiver city in the BR Code (the account has no address yet). */
export const DEFAULT_MERCHANT_CITY = "SAO PAULO";

export interface CreateTransactionInput {
  origin: "charges" | "payments";
  methods: PaymentMethod[];
  /** Minor units, > 0 (validated by the route). */
  amount: number;
  /** ISO 4217 upper case. */
  currency: string;
  customer?: {
    id?: string | null;
    name?: string | null;
    /** Normalized (digits / [0-9A-Z]) for CPF/CNPJ. */
    document?: string | null;
    email?: string | null;
    phone?: string | null;
  };
  /** Normalized, checksum-valid CPF/CNPJ (validated by the caller). */
  expectedPayerTaxId?: string | null;
  /** Already sanitized merchant metadata (see sanitizeMetadata). */
  metadata?: Record<string, unknown>;
  /** Pix window in seconds (>= 60; capped at 86400); default: the account's `default_expires_in`. */
  expiresIn?: number;
  webhookUrl?: string | null;
}

export interface IdempotentCompletion {
  claim: Claim;
  /** How a recovered live create renders this response (intents.ts); default `charge`. */
  view?: IntentView;
  /** The caller's view of the created row (stored as the replayed response). */
  render: (row: TransactionRow) => unknown;
  /** Default 201. */
  status?: number;
}

/**
 * Creates the transaction and returns its row (status WAITING_PAYMENT, or REFUSED when the
 * provider rejected it). A live provider with `reserve` gets a durable intent first (intents.ts):
 * a retry of the same key resumes it with the same txid and transaction. Throws DomainError 422
 * `unprocessable_entity`, 403 `fraud.*`, 503 `service_unavailable`, 404 `not_found` (account
 * gone), 409 `idempotency_key_reused` (an open intent of the key was made with another body).
 */
export async function createTransaction(
  deps: Deps,
  auth: Pick<Caller, "accountId" | "livemode">,
  input: CreateTransactionInput,
  idem?: IdempotentCompletion,
): Promise<TransactionRow> {
  let providers: PaymentProvider[] = input.methods.map((m) => {
    const p = deps.providers.forMethod(auth, m);
    if (!p)
      throw new DomainError(
        "unprocessable_entity",
        `No ${auth.livemode ? "live" : "sandbox"} provider is configured for ${m}.`,
        { param: "payment_method" },
      );
    return p;
  });
  const account = await deps.store.read.charges.accountForCreate(auth.accountId);
  if (!account) throw new DomainError("not_found", "No such account.");
  const settings = account.settings;
  const now = deps.clock.nowMs();
  const document = input.expectedPayerTaxId ?? input.customer?.document ?? null;
  const velocity = { accountId: auth.accountId, livemode: auth.livemode, document, nowMs: now };

  // A live PSP's create is made durable first (one cob per charge under retries and crashes).
  const reserving =
    idem && providers[0]!.reserve && providers.every((p) => p === providers[0]) ? providers[0]! : undefined;
  const record = reserving ? deps.idempotency.recordOf(idem!.claim) : undefined;
  const resumed = record ? await findIntent(deps.store.read.charges, record) : undefined;
  if (resumed && resumed.record.requestHash !== record!.requestHash)
    throw new DomainError(
      "idempotency_key_reused",
      "This idempotency key was already used with a different request body.",
    );
  if (resumed) {
    // The connection that may have created the cob serves the retry, even if replaced since.
    const p = deps.providers.forConnection(resumed.connectionId);
    if (!p)
      throw new DomainError(
        "service_unavailable",
        "The payment provider is unavailable; retry with the same Idempotency-Key.",
      );
    providers = providers.map(() => p);
  } else if (velocityLimited(settings)) await checkVelocity(deps.store.read.charges, settings, velocity);

  const hasPix = input.methods.includes("PIX");
  const ttl = hasPix ? Math.min(input.expiresIn ?? settings.default_expires_in, MAX_EXPIRES_IN) : null;
  const row: TransactionRow = resumed
    ? { ...resumed.row }
    : {
        id: rawId(),
        accountId: auth.accountId,
        livemode: auth.livemode,
        amount: input.amount,
        currency: input.currency,
        status: "WAITING_PAYMENT",
        paymentMethods: JSON.stringify(input.methods),
        paidWith: null,
        origin: input.origin,
        customerId: input.customer?.id ?? null,
        customerName: input.customer?.name ?? null,
        customerDocument: input.customer?.document ?? null,
        customerEmail: input.customer?.email ?? null,
        customerPhone: input.customer?.phone ?? null,
        expectedPayerTaxId: input.expectedPayerTaxId ?? null,
        payerLockApplied: !!input.expectedPayerTaxId && settings.payer_lock_enabled,
        metadata: JSON.stringify(input.metadata ?? {}),
        webhookUrl: input.webhookUrl ?? null,
        pixBrCode: null,
        pixTxid: null,
        pixLocation: null,
        providerConnectionId: null,
        expiresAt: ttl === null ? null : now + ttl * 1000,
        ttlSeconds: ttl,
        methodDetails: "{}",
        endToEndId: null,
        platformFee: null,
        refundedAmount: 0,
        paidAt: null,
        createdAt: now,
        updatedAt: now,
      };
  let reservation: Reservation | undefined;
  let intent: OpenIntent | undefined = resumed;
  if (resumed) reservation = { txid: resumed.txid, connectionId: resumed.connectionId, resumed: true };
  else if (reserving) {
    const r = reserving.reserve!(deps.providers.ctx, { transaction: row });
    intent = await openIntent(deps, record!, r, row, idem!.view ?? "charge");
    reservation = { ...r, resumed: false };
    // The intent's unit may have returned before it is durable (src/store/port.ts `durable()`),
    // and the PSP's request could leave before that: a crash in between would leave a cob no
    // intent names. Wait until it is durable first.
    const pending = deps.store.durable();
    if (pending) await pending;
  }

  const merchant = { name: account.name, city: DEFAULT_MERCHANT_CITY };
  const details: Record<string, unknown> = {};
  let failure: ProviderFailure | null = null;
  /** First status checks the providers asked for (live PSPs: the first poll). */
  const checks: CreateCheck[] = [];
  for (let i = 0; i < providers.length && !failure; i++) {
    const p = providers[i]!;
    if (providers.indexOf(p) < i) continue; // served with the methods of its first occurrence
    const methods = providers.length === 1 ? input.methods : input.methods.filter((_, j) => providers[j] === p);
    const out: CreateOutcome = await p.create(deps.providers.ctx, {
      transaction: row,
      methods,
      settings,
      merchant,
      ...(reservation ? { reservation } : {}),
    });
    if (out.status === "absent") failure = { status: "retryable", code: "absent", message: "The PSP has no such cob." };
    else if (out.status !== "pending") failure = out;
    else {
      if (out.columns) Object.assign(row, out.columns);
      if (out.checkAt !== undefined)
        checks.push({ method: methods[0]!, at: out.checkAt, ...(out.memo ? { memo: out.memo } : {}) });
      if (out.details)
        for (const m in out.details) details[m] = { ...(details[m] as object), ...out.details[m as PaymentMethod] };
    }
  }
  // Test-only (COFRE_TEST_CRASH_AFTER_PSP_CREATE=1): die between the PSP's answer and our commit.
  if (intent && deps.config.testCrashAfterPspCreate) process.kill(process.pid, "SIGKILL");
  if (failure) {
    if (failure.status === "retryable" || failure.status === "auth_failed") {
      if (failure.status === "auth_failed")
        deps.logger.error(
          { accountId: auth.accountId, code: failure.code },
          "payment provider refused our credentials",
        );
      throw new DomainError(
        "service_unavailable",
        "The payment provider is unavailable; retry with the same Idempotency-Key.",
      );
    }
    if (failure.status !== "rejected") {
      if (intent) await deps.store.tx((uow) => dropIntent(uow, intent!.id));
      // A field the provider needs and the request lacks (a live boleto's payer address): 400 on it.
      if (failure.status === "invalid" && failure.param) throw invalidParam(failure.param, failure.message);
      throw new DomainError("unprocessable_entity", failure.message);
    }
  }
  row.methodDetails = JSON.stringify(details);
  const render = idem
    ? {
        claim: idem.claim,
        status: idem.status ?? 201,
        render: idem.render,
        chargeView: (idem.view ?? "charge") === "charge",
      }
    : undefined;
  try {
    return await commitCreate(deps, row, failure, checks, render, {
      intentId: intent?.id,
      velocity: resumed ? undefined : { settings, input: velocity },
    });
  } catch (err) {
    // Refused at commit (velocity raced): the cob exists but no charge will; withdraw it, best effort.
    if (err instanceof DomainError && intent && reserving && row.pixTxid) {
      await deps.store.tx((uow) => dropIntent(uow, intent!.id));
      void Promise.resolve(reserving.cancel(deps.providers.ctx, { transaction: row })).catch(() => {});
    }
    throw err;
  }
}

/** A first status check a provider asked for at create (live PSPs: the first poll). */
export interface CreateCheck {
  method: PaymentMethod;
  /** Epoch ms. */
  at: number;
  memo?: ProviderMemo;
}

/**
 * The commit of a create (createTransaction, and the intent recovery job): `row` as the provider
 * left it, REFUSED with `metadata.failure` when `failure` (a rejection) is given; one transaction:
 * velocity re-check (when `opts.velocity`), the open intent deleted (when `opts.intentId`; if
 * another path already finalised it, that charge is returned unchanged; if it was dropped and
 * `opts.onlyOpenIntent`, nothing is written), insert, expiry sweep
 * (sandbox), first status checks, `charge.created` events, idempotency response, all in one unit
 * of work. Returns the row.
 */
export function commitCreate(
  deps: Deps,
  row: TransactionRow,
  failure: ProviderFailure | null,
  checks: readonly CreateCheck[],
  /** `chargeView`: `render` returns the public Charge (the `charge.*` events' object), so they share it. */
  idem: { claim: Claim; status: number; render: (row: TransactionRow) => unknown; chargeView?: boolean } | undefined,
  opts: {
    intentId?: string;
    onlyOpenIntent?: boolean;
    velocity?: { settings: AccountRules; input: Parameters<typeof checkVelocity>[2] };
  },
): Promise<TransactionRow> {
  if (failure) {
    // The rejected charge never had a Pix QR, hence no expiry and no ttlSeconds.
    const block = failureBlock("provider_rejected", failure.code, null, iso(deps.clock.nowMs()));
    Object.assign(row, {
      status: "REFUSED",
      pixBrCode: null,
      pixTxid: null,
      pixLocation: null,
      expiresAt: null,
      ttlSeconds: null,
      metadata: JSON.stringify({ ...(JSON.parse(row.metadata) as object), failure: block }),
    });
  }
  // The state machine (model.ts): a create inserts WAITING_PAYMENT, or REFUSED through "reject".
  assertTransition(null, "create", "WAITING_PAYMENT", row.id);
  if (row.status !== "WAITING_PAYMENT")
    assertTransition("WAITING_PAYMENT", "reject", row.status as TransactionStatus, row.id);
  return deps.store.tx(async (uow) => {
    if (opts.velocity && velocityLimited(opts.velocity.settings))
      await checkVelocity(uow.charges, opts.velocity.settings, opts.velocity.input);
    if (opts.intentId && !(await dropIntent(uow, opts.intentId))) {
      const done = await uow.charges.byId(row.id);
      if (done) return done;
      // Dropped meanwhile: the request path holds a live cob and commits it; the recovery does not.
      if (opts.onlyOpenIntent) return row;
    }
    await uow.charges.insert(row);
    // A live PSP's charge expires only once its status check confirms nobody paid (expiry.ts).
    if (row.status === "WAITING_PAYMENT" && row.expiresAt !== null && row.providerConnectionId === null)
      await ensureExpirySweep(deps, uow, row.expiresAt);
    if (row.status === "WAITING_PAYMENT")
      for (const c of checks) await scheduleStatusCheck(deps, uow, row.id, c.method, c.at, c.memo);
    // charge.created carries the charge as the API returns it (already `failed` when rejected).
    // The answer's view, built once for the event and the answer (idem.render caches it).
    const view = idem?.chargeView ? () => idem.render(row) : undefined;
    await emitTransition(deps, uow, row, null, view);
    if (row.status === "REFUSED") await emitTransition(deps, uow, row, "WAITING_PAYMENT", view);
    if (idem) await deps.idempotency.complete(uow, idem.claim, idem.status, idem.render(row));
    return row;
  });
}
