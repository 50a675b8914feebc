/**
 * stripe-sim object ids: Stripe's prefixes (`cs_test_`, `pi_`, `ch_`, `re_`, `du_`, `txn_`,
 * `evt_`, `we_`, `acct_`, `pm_`, `req_`) and random base62 tails; secrets `sk_test_...`,
 * `whsec_...`. Time-ordered (a millisecond prefix) so list order by id = creation order.
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function base62(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += ALPHABET[b % 62];
  return out;
}

let lastMs = 0;
let seq = 0;

function timePart(): string {
  const now = Date.now();
  seq = now === lastMs ? seq + 1 : 0;
  lastMs = now;
  let n = now * 64 + (seq % 64);
  let s = "";
  for (let i = 0; i < 9; i++) {
    s = ALPHABET[n % 62] + s;
    n = Math.floor(n / 62);
  }
  return s;
}

/** A new id with `prefix` (e.g. `pi`): `pi_` + 9 time characters + 15 random. */
export function simId(prefix: string): string {
  return `${prefix}_${timePart()}${base62(crypto.getRandomValues(new Uint8Array(15)))}`;
}

/** A random secret with `prefix` (`sk_test`, `whsec`). */
export function secret(prefix: string, length = 32): string {
  return `${prefix}_${base62(crypto.getRandomValues(new Uint8Array(length)))}`;
}
