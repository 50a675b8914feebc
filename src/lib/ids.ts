/** Prefixed identifiers from one helper: time-ordered (UUIDv7) and unguessable (74 random bits). */

/** Every id prefix Cofre hands out (DESIGN.md "Money, time and ids"). */
export const ID_PREFIX = {
  charge: "ch_",
  refund: "re_",
  event: "evt_",
  webhookEndpoint: "wh_",
  webhookDelivery: "wd_",
  medCase: "med_",
  evidence: "ev_",
  evidenceUpload: "evu_",
  apiKey: "ak_",
  account: "acct_",
  user: "usr_",
  job: "job_",
  idempotency: "idk_",
  ledgerEntry: "je_",
  auditLog: "aud_",
  requestLog: "req_",
  tranche: "tr_",
  pixProviderConnection: "ppc_",
  cardProviderConnection: "cpc_",
  payout: "po_",
  payoutDestination: "pd_",
} as const;

export type IdKind = keyof typeof ID_PREFIX;

/** A raw id: 32 lowercase hex characters of a UUIDv7 (time-ordered, so inserts stay cheap). */
export function rawId(): string {
  return Bun.randomUUIDv7().replaceAll("-", "");
}

/** True when `value` has the shape `newId(kind)` hands out (its prefix and 32 lowercase hex characters). */
export function isIdOf(kind: IdKind, value: string): boolean {
  return (
    value.length === ID_PREFIX[kind].length + 32 &&
    value.startsWith(ID_PREFIX[kind]) &&
    /^[0-9a-f]{32}$/.test(value.slice(ID_PREFIX[kind].length))
  );
}

/** A prefixed id, e.g. `newId("refund")` -> `re_0193...`. */
export function newId(kind: IdKind): string {
  return ID_PREFIX[kind] + rawId();
}

/** Removes `prefix` from `id` when present: `stripPrefix("ch_abc", "ch_")` -> `abc`. */
export function stripPrefix(id: string, prefix: string): string {
  return id.startsWith(prefix) ? id.slice(prefix.length) : id;
}
