/**
 * createTransaction: the one creation path behind `POST /v1/charges`, `/v1/pix/charges`
 * (origin "charges", methods ["PIX"]) and `POST /v1/payments` (origin "payments").
 * Steps: provider per method from `deps.providers` (none -> 422), velocity guard (403 `fraud.*`),
 * the provider's `create` outside any transaction (outcomes: pending -> WAITING_PAYMENT;
 * rejected -> created REFUSED with `metadata.failure`; retryable / auth_failed -> 503, nothing
 * stored; not_supported / invalid -> 422), then one transaction: insert, expiry sweep due by
 * `expires_at` (not for a live PSP's charge: its status checks confirm expiry), the first status
 * check a provider asked for (`checkAt`), `charge.created` events, idempotency response.
 */
import { tx } from "../../db/client";
import type { Deps } from "../../deps";
import { ApiError } from "../../http/errors";
import type { ApiKeyAuth } from "../../http/plugins/api-key-auth";
import { iso } from "../../lib/clock";
import { rawId } from "../../lib/ids";
import type { CreateOutcome, PaymentProvider, ProviderFailure, ProviderMemo, TransactionRow } from "../../providers/types";
import type { Claim } from "../idempotency/store";
import { emitTransition } from "./events";
import { ensureExpirySweep } from "./expiry";
import { failureBlock } from "./metadata";
import { scheduleStatusCheck } from "./outcomes";
import type { PaymentMethod } from "./model";
import { accountForCreate, insertTransaction } from "./repo";
import { checkVelocity } from "./velocity";

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
  /** The caller's view of the created row (stored as the replayed response). */
  render: (row: TransactionRow) => unknown;
  /** Default 201. */
  status?: number;
}

/**
 * Creates the transaction and returns its row (status WAITING_PAYMENT, or REFUSED when the
 * provider rejected it). Throws ApiError 422 `unprocessable_entity`, 403 `fraud.*`,
 * 503 `service_unavailable`, 404 `not_found` (account gone).
 */
export async function createTransaction(
  deps: Deps,
  auth: Pick<ApiKeyAuth, "accountId" | "livemode">,
  input: CreateTransactionInput,
  idem?: IdempotentCompletion,
): Promise<TransactionRow> {
  const providers: PaymentProvider[] = input.methods.map((m) => {
    const p = deps.providers.forMethod(auth, m);
    if (!p) throw new ApiError("unprocessable_entity", `No ${auth.livemode ? "live" : "sandbox"} provider is configured for ${m}.`, { param: "payment_method" });
    return p;
  });
  const account = accountForCreate(deps.db, auth.accountId);
  if (!account) throw new ApiError("not_found", "No such account.");
  const settings = account.settings;
  const now = deps.clock.nowMs();
  const document = input.expectedPayerTaxId ?? input.customer?.document ?? null;
  const velocity = { accountId: auth.accountId, livemode: auth.livemode, document, nowMs: now };
  checkVelocity(deps.db, settings, velocity);

  const hasPix = input.methods.includes("PIX");
  const ttl = hasPix ? Math.min(input.expiresIn ?? settings.default_expires_in, MAX_EXPIRES_IN) : null;
  const row: TransactionRow = {
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

  const merchant = { name: account.name, city: DEFAULT_MERCHANT_CITY };
  const details: Record<string, unknown> = {};
  let failure: ProviderFailure | null = null;
  /** First status checks the providers asked for (live PSPs: the first poll). */
  const checks: { method: PaymentMethod; at: number; memo?: ProviderMemo }[] = [];
  for (let i = 0; i < providers.length && !failure; i++) {
    const p = providers[i]!;
    if (providers.indexOf(p) < i) continue; // served with the methods of its first occurrence
    const methods = providers.length === 1 ? input.methods : input.methods.filter((_, j) => providers[j] === p);
    const out: CreateOutcome = await p.create(deps.providers.ctx, { transaction: row, methods, settings, merchant });
    if (out.status !== "pending") failure = out;
    else {
      if (out.columns) Object.assign(row, out.columns);
      if (out.checkAt !== undefined) checks.push({ method: methods[0]!, at: out.checkAt, ...(out.memo ? { memo: out.memo } : {}) });
      if (out.details) for (const m in out.details) details[m] = { ...(details[m] as object), ...out.details[m as PaymentMethod] };
    }
  }
  if (failure) {
    if (failure.status === "retryable" || failure.status === "auth_failed") {
      if (failure.status === "auth_failed") deps.logger.error({ accountId: auth.accountId, code: failure.code }, "payment provider refused our credentials");
      throw new ApiError("service_unavailable", "The payment provider is unavailable; retry with the same Idempotency-Key.");
    }
    if (failure.status !== "rejected") throw new ApiError("unprocessable_entity", failure.message);
    // The rejected charge never had a Pix QR, hence no expiry and no ttlSeconds.
    const block = failureBlock("provider_rejected", failure.code, null, iso(now));
    Object.assign(row, {
      status: "REFUSED",
      pixBrCode: null,
      pixTxid: null,
      pixLocation: null,
      expiresAt: null,
      ttlSeconds: null,
      metadata: JSON.stringify({ ...(input.metadata ?? {}), failure: block }),
    });
  }
  row.methodDetails = JSON.stringify(details);

  return tx(deps.db, (t) => {
    checkVelocity(t, settings, velocity);
    insertTransaction(deps.db, t, row);
    // A live PSP's charge expires only once its status check confirms nobody paid (expiry.ts).
    if (row.status === "WAITING_PAYMENT" && row.expiresAt !== null && row.providerConnectionId === null) ensureExpirySweep(deps, t, row.expiresAt);
    if (row.status === "WAITING_PAYMENT") for (const c of checks) scheduleStatusCheck(deps, t, row.id, c.method, c.at, c.memo);
    // charge.created carries the charge as the API returns it (already `failed` when rejected).
    emitTransition(deps, t, row, null);
    if (row.status === "REFUSED") emitTransition(deps, t, row, "WAITING_PAYMENT");
    if (idem) deps.idempotency.complete(t, idem.claim, idem.status ?? 201, idem.render(row));
    return row;
  });
}
