/**
 * Payout destinations (extensions.md "Payouts (money out)"): the only places money may be sent.
 * Registered and removed only by an OWNER or ADMIN through a dashboard session (the route checks
 * the credential; a leaked API key cannot add one), account-wide (both modes), validated per key
 * type with well-kept libraries (cpf-cnpj-validator through src/pix/tax-id.ts, validator's isEmail
 * and isUUID, libphonenumber-js), each change written to the audit log in its unit of work.
 */
import type { Deps } from "../deps";
import { newId } from "../../lib/ids";
import { parseTaxId } from "../../pix/tax-id";
import type { NewPayoutDestinationRow } from "../../store/rows";
import { invalidParam, notFound } from "../errors";
import { ACCOUNT_TYPES, PIX_KEY_TYPES, type PixKeyType } from "../../pix/key-types";
import { normalizePixKey } from "../../pix/keys";
import { toPayoutDestination, type PublicPayoutDestination } from "./destination-views";

/** The body of POST /v1/payout_destinations (types checked by the route; rules here). */
export interface DestinationInput {
  type: "pix_key" | "bank_account";
  pix_key?: string;
  pix_key_type?: string;
  name?: string;
  tax_id?: string;
  ispb?: string;
  branch?: string;
  account?: string;
  account_type?: string;
}

/** Who registers or removes: a dashboard member (OWNER or ADMIN, checked by the route) of `accountId`. */
export interface DestinationActor {
  accountId: string;
  userId: string;
}

const PIX_FIELDS = ["pix_key", "pix_key_type"] as const;
const BANK_FIELDS = ["ispb", "branch", "account", "account_type"] as const;

/** A checksum-valid CPF or CNPJ, normalised; 400 `invalid_tax_id` naming `param` otherwise. */
function taxIdOf(param: string, v: string, kind?: "cpf" | "cnpj"): string {
  const parsed = parseTaxId(v);
  if (!parsed || (kind && parsed.kind !== kind))
    throw invalidParam(
      param,
      `${param} must be a checksum-valid ${kind ? kind.toUpperCase() : "CPF or CNPJ"}.`,
      "invalid_tax_id",
    );
  return parsed.value;
}

/** What a key of each type must be, for the 400 message. */
const KEY_RULES: Record<PixKeyType, string> = {
  cpf: "a checksum-valid CPF",
  cnpj: "a checksum-valid CNPJ",
  email: "an e-mail address of at most 77 characters",
  phone: "a Brazilian phone number in E.164 (+55, area code, number)",
  evp: "a random key (EVP: a UUID)",
};

/** A Pix key of `keyType`, normalised (src/pix/keys.ts), or 400 naming `pix_key` (`invalid_tax_id` for a CPF/CNPJ). */
function pixKeyOf(keyType: PixKeyType, key: string): string {
  const v = normalizePixKey(keyType, key);
  if (v !== null) return v;
  throw invalidParam(
    "pix_key",
    `pix_key must be ${KEY_RULES[keyType]} for pix_key_type ${keyType}.`,
    keyType === "cpf" || keyType === "cnpj" ? "invalid_tax_id" : "invalid_request",
  );
}

/** The row of a valid `input`, or 400 naming the first field at fault. */
function destinationRow(actor: DestinationActor, input: DestinationInput, now: number): NewPayoutDestinationRow {
  const name = input.name?.trim();
  if (input.name !== undefined && !name) throw invalidParam("name", "name must not be blank.");
  const row: NewPayoutDestinationRow = {
    id: newId("payoutDestination"),
    accountId: actor.accountId,
    type: input.type,
    name: name ?? null,
    createdBy: actor.userId,
    createdAt: now,
  };
  const others = input.type === "pix_key" ? BANK_FIELDS : PIX_FIELDS;
  for (const f of others)
    if (input[f] !== undefined) throw invalidParam(f, `${f} does not apply to a ${input.type} destination.`);
  if (input.type === "pix_key") {
    if (input.pix_key_type === undefined)
      throw invalidParam("pix_key_type", "pix_key_type is required: cpf, cnpj, email, phone or evp.");
    if (!PIX_KEY_TYPES.includes(input.pix_key_type as PixKeyType))
      throw invalidParam("pix_key_type", "pix_key_type must be cpf, cnpj, email, phone or evp.");
    if (!input.pix_key) throw invalidParam("pix_key", "pix_key is required.");
    row.pixKeyType = input.pix_key_type;
    row.pixKey = pixKeyOf(input.pix_key_type as PixKeyType, input.pix_key);
    row.taxId = input.tax_id === undefined ? null : taxIdOf("tax_id", input.tax_id);
    return row;
  }
  if (!name) throw invalidParam("name", "name is required for a bank_account destination.");
  if (input.tax_id === undefined) throw invalidParam("tax_id", "tax_id is required for a bank_account destination.");
  row.taxId = taxIdOf("tax_id", input.tax_id);
  if (!input.ispb || !/^\d{8}$/.test(input.ispb)) throw invalidParam("ispb", "ispb must be the bank's ISPB: 8 digits.");
  if (!input.branch || !/^\d{1,4}$/.test(input.branch)) throw invalidParam("branch", "branch must be 1-4 digits.");
  if (!input.account || !/^\d{2,20}$/.test(input.account))
    throw invalidParam("account", "account must be 2-20 digits, check digit included.");
  if (!ACCOUNT_TYPES.includes(input.account_type as never))
    throw invalidParam("account_type", "account_type must be checking or savings.");
  Object.assign(row, {
    ispb: input.ispb,
    branch: input.branch,
    account: input.account,
    accountType: input.account_type,
  });
  return row;
}

/**
 * POST /v1/payout_destinations -> 201 the destination. Throws 400 naming the field
 * (`invalid_request`, or `invalid_tax_id` for a CPF/CNPJ), before anything is written. Writes the
 * audit entry `payout_destination.created` (target the `pd_` id, detail `{type, pix_key_type}`).
 */
export async function createDestination(
  deps: Deps,
  actor: DestinationActor,
  input: DestinationInput,
): Promise<PublicPayoutDestination> {
  const now = deps.clock.nowMs();
  const row = destinationRow(actor, input, now);
  await deps.store.tx(async (uow) => {
    await uow.payoutDestinations.insert(row);
    await uow.audit.append({
      id: newId("auditLog"),
      accountId: actor.accountId,
      actorUserId: actor.userId,
      action: "payout_destination.created",
      target: row.id,
      detail: JSON.stringify({ type: row.type, pix_key_type: row.pixKeyType ?? null }),
      createdAt: now,
    });
  });
  return toPayoutDestination({
    ...row,
    name: row.name ?? null,
    taxId: row.taxId ?? null,
    pixKey: row.pixKey ?? null,
    pixKeyType: row.pixKeyType ?? null,
    ispb: row.ispb ?? null,
    branch: row.branch ?? null,
    account: row.account ?? null,
    accountType: row.accountType ?? null,
    createdBy: actor.userId,
    deletedAt: null,
  });
}

/** GET /v1/payout_destinations: the account's destinations not removed, newest first. */
export async function listDestinations(deps: Deps, accountId: string) {
  const rows = await deps.store.read.payoutDestinations.listActive(accountId);
  return { object: "list" as const, data: rows.map(toPayoutDestination) };
}

/**
 * DELETE /v1/payout_destinations/{id}: removes it (soft delete; payouts already made keep their
 * snapshot) and writes the audit entry `payout_destination.deleted`. 404 when it is unknown,
 * another account's or already removed.
 */
export async function deleteDestination(deps: Deps, actor: DestinationActor, id: string): Promise<void> {
  const now = deps.clock.nowMs();
  await deps.store.tx(async (uow) => {
    if (!(await uow.payoutDestinations.softDelete(actor.accountId, id, now))) throw notFound("payout destination");
    await uow.audit.append({
      id: newId("auditLog"),
      accountId: actor.accountId,
      actorUserId: actor.userId,
      action: "payout_destination.deleted",
      target: id,
      createdAt: now,
    });
  });
}
