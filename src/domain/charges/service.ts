/**
 * Charge use cases (interface.md "Charges"): create with every body rule of POST /v1/charges,
 * retrieve by `ch_` or raw id, and the cursor list of GET /v1/charges. No HTTP objects here.
 */
import { isEmailAddress } from "../../lib/email";
import type { Deps } from "../deps";
import { invalidParam, notFound } from "../errors";
import type { Caller } from "../scope";
import { parseTaxId } from "../../pix/tax-id";
import type { TransactionRow } from "../providers/types";
import type { Claim } from "../idempotency/store";
import { createTransaction } from "./create";
import { sanitizeMetadata } from "./metadata";
import { CHARGE_STATUSES, transactionStatusesFor, type ChargeStatus } from "./model";
import { CHARGE_ID_PREFIX, hasChargeView, toPublicCharge, type PublicCharge } from "./views";

/** Body of POST /v1/charges after schema validation (types only; rules are checked here). */
export interface CreateChargeBody {
  amount: number;
  currency?: string;
  payment_method?: string;
  description?: string;
  expires_in?: number;
  customer?: { name?: string; document?: string; email?: string; phone?: string };
  expected_payer_tax_id?: string;
  metadata?: Record<string, unknown>;
}

export const MAX_DESCRIPTION = 500;
export const MIN_EXPIRES_IN = 60;
/** Largest Pix amount field 54 of the BR Code can carry (9,999,999,999.99). */
export const MAX_PIX_AMOUNT = 999_999_999_999;

type Auth = Pick<Caller, "accountId" | "livemode">;

/**
 * Validates the business rules of a charge body and creates it; returns the public Charge.
 * Throws DomainError 400 (`invalid_request`, `invalid_amount`, `invalid_currency`, `invalid_tax_id`),
 * plus every error of createTransaction.
 */
export async function createCharge(
  deps: Deps,
  auth: Auth,
  body: CreateChargeBody,
  claim?: Claim,
): Promise<PublicCharge> {
  if (!Number.isSafeInteger(body.amount) || body.amount <= 0)
    throw invalidParam("amount", "amount must be an integer > 0.", "invalid_amount");
  if (body.amount > MAX_PIX_AMOUNT)
    throw invalidParam("amount", `amount must be at most ${MAX_PIX_AMOUNT} for Pix.`, "invalid_amount");
  const currency = (body.currency ?? "BRL").toUpperCase();
  if (currency !== "BRL") throw invalidParam("currency", "Pix charges accept only BRL.", "invalid_currency");
  if (body.payment_method === undefined)
    throw invalidParam("payment_method", "payment_method is required (only `pix` is accepted).");
  if (body.payment_method !== "pix") throw invalidParam("payment_method", "Only `pix` is accepted.");
  if (body.description !== undefined && body.description.length > MAX_DESCRIPTION)
    throw invalidParam("description", `description must be at most ${MAX_DESCRIPTION} characters.`);
  if (body.expires_in !== undefined && body.expires_in < MIN_EXPIRES_IN)
    throw invalidParam("expires_in", `expires_in must be at least ${MIN_EXPIRES_IN} seconds.`);

  const c = body.customer ?? {};
  let document: string | null = null;
  if (c.document !== undefined) {
    const parsed = parseTaxId(c.document);
    if (!parsed)
      throw invalidParam("customer.document", "customer.document must be a valid CPF or CNPJ.", "invalid_tax_id");
    document = parsed.value;
  }
  if (c.email !== undefined && !isEmailAddress(c.email))
    throw invalidParam("customer.email", "customer.email must be a valid email address.");
  let expected: string | null = null;
  if (body.expected_payer_tax_id !== undefined) {
    const parsed = parseTaxId(body.expected_payer_tax_id);
    if (!parsed)
      throw invalidParam(
        "expected_payer_tax_id",
        "expected_payer_tax_id must be a checksum-valid CPF (11 digits) or CNPJ (14 characters).",
        "invalid_tax_id",
      );
    expected = parsed.value;
    if (!c.name?.trim())
      throw invalidParam("customer.name", "customer.name is required when expected_payer_tax_id is sent.");
    if (document !== null && document !== expected)
      throw invalidParam(
        "expected_payer_tax_id",
        "expected_payer_tax_id must equal customer.document when both are sent.",
      );
  }

  const metadata = sanitizeMetadata(body.metadata);
  if (body.description !== undefined) metadata.description = body.description;
  // Rendered once: stored as the idempotent response inside the transaction, then returned.
  let view: PublicCharge | undefined;
  const render = (row: TransactionRow) => (view ??= toPublicCharge(row, deps.config));
  const row = await createTransaction(
    deps,
    auth,
    {
      origin: "charges",
      methods: ["PIX"],
      amount: body.amount,
      currency,
      customer: { name: c.name ?? null, document, email: c.email ?? null, phone: c.phone ?? null },
      expectedPayerTaxId: expected,
      metadata,
      expiresIn: body.expires_in,
    },
    claim ? { claim, render, view: "charge" } : undefined,
  );
  return render(row);
}

/** Raw id of `id` (`ch_` prefix optional), or null when it cannot be one of ours. */
export function parseChargeId(id: string): string | null {
  const raw = id.startsWith(CHARGE_ID_PREFIX) ? id.slice(CHARGE_ID_PREFIX.length) : id;
  return /^[0-9a-f]{32}$/.test(raw) ? raw : null;
}

/**
 * The caller's transaction `id` (`ch_` or raw) whatever its methods, or 404 `not_found` ("No such
 * `what`."). Also the lookup of every `/v1/payments/{id}` route (getPayment).
 */
export async function getTransactionRow(deps: Deps, auth: Auth, id: string, what = "charge"): Promise<TransactionRow> {
  const raw = parseChargeId(id);
  const row = raw ? await deps.store.read.charges.byScopedId(auth.accountId, auth.livemode, raw) : undefined;
  if (!row) throw notFound(what);
  return row;
}

/** GET /v1/charges/{id} (hot path: one read, one await), or 404 `not_found`. */
export async function getCharge(deps: Deps, auth: Auth, id: string): Promise<PublicCharge> {
  const raw = parseChargeId(id);
  const row = raw ? await deps.store.read.charges.byScopedId(auth.accountId, auth.livemode, raw) : undefined;
  if (!row || !hasChargeView(row)) throw notFound("charge");
  return toPublicCharge(row, deps.config);
}

const LIST_PARAMS = new Set(["limit", "starting_after", "status", "created_after", "created_before", "customer_id"]);

/**
 * Epoch ms of an ISO 8601 timestamp. A bare date (`2026-11-20`) is a whole UTC day: its first
 * millisecond for `created_after`, its last for `created_before` (both bounds inclusive).
 */
function parseDate(param: string, value: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw invalidParam(param, `${param} must be an ISO 8601 timestamp.`);
  if (param === "created_before" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return ms + 86_400_000 - 1;
  return ms;
}

/**
 * GET /v1/charges: `{object: "list", data, has_more, next_cursor}`, newest first. Unknown
 * parameters (including `page` and `offset`), bad values or a foreign cursor -> 400.
 */
export async function listCharges(deps: Deps, auth: Auth, query: Record<string, string | undefined>) {
  for (const k of Object.keys(query)) {
    if (k === "page" || k === "offset")
      throw invalidParam(k, `${k} is not accepted; paginate with starting_after (cursor).`);
    if (!LIST_PARAMS.has(k)) throw invalidParam(k, `Unknown query parameter ${k}.`);
  }
  let limit = 25;
  if (query.limit !== undefined) {
    if (!/^\d{1,3}$/.test(query.limit) || Number(query.limit) < 1 || Number(query.limit) > 100)
      throw invalidParam("limit", "limit must be an integer from 1 to 100.");
    limit = Number(query.limit);
  }
  let statuses;
  if (query.status !== undefined) {
    if (!CHARGE_STATUSES.includes(query.status as ChargeStatus))
      throw invalidParam("status", `status must be one of ${CHARGE_STATUSES.join(", ")}.`);
    statuses = transactionStatusesFor(query.status as ChargeStatus);
  }
  const createdFromMs = query.created_after !== undefined ? parseDate("created_after", query.created_after) : undefined;
  const createdToMs =
    query.created_before !== undefined ? parseDate("created_before", query.created_before) : undefined;
  let document: string | undefined;
  if (query.customer_id !== undefined) {
    if (query.customer_id.trim() === "") throw invalidParam("customer_id", "customer_id must not be empty.");
    document = parseTaxId(query.customer_id)?.value ?? query.customer_id.replace(/[./\-\s]/g, "").toUpperCase();
  }
  let after;
  if (query.starting_after !== undefined) {
    const raw = query.starting_after.startsWith(CHARGE_ID_PREFIX) ? parseChargeId(query.starting_after) : null;
    const row = raw ? await deps.store.read.charges.byScopedId(auth.accountId, auth.livemode, raw) : undefined;
    if (!row)
      throw invalidParam(
        "starting_after",
        "starting_after must be the id (ch_...) of one of your charges.",
        "invalid_cursor",
      );
    after = row;
  }
  const rows = await deps.store.read.charges.list({
    accountId: auth.accountId,
    livemode: auth.livemode,
    limit,
    after,
    statuses,
    createdFromMs,
    createdToMs,
    document,
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    object: "list" as const,
    data: page.map((r) => toPublicCharge(r, deps.config)),
    has_more: hasMore,
    next_cursor: hasMore ? CHARGE_ID_PREFIX + page[page.length - 1]!.id : null,
  };
}
