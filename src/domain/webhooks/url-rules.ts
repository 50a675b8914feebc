/**
 * Destination rules for webhook URLs: what may be registered (interface.md "Webhooks";
 * extensions.md `COFRE_WEBHOOK_ALLOW_PRIVATE`) and the SSRF guard applied at connect time to
 * live-mode deliveries (DNS answers checked, not just the hostname).
 */
import ipaddr from "ipaddr.js";
import { invalidParam } from "../../http/errors";

/** Longest accepted webhook URL, in characters. */
export const MAX_URL_LENGTH = 2048;

/** One DNS answer, as `dns.promises.lookup(host, {all: true})` returns it. */
export interface LookupAddress {
  address: string;
  family: number;
}

export type Lookup = (hostname: string) => Promise<LookupAddress[]>;

/** Host names that always mean this machine or its network. */
function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost") || h.endsWith(".local") || h.endsWith(".internal");
}

/** Strips the brackets of an IPv6 URL host (`[::1]` -> `::1`). */
export function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/**
 * Why `address` (an IP literal) must not be contacted, or null when it is public unicast.
 * Allowlist: only ipaddr.js range `unicast` passes; loopback, private, linkLocal (incl. the
 * 169.254.169.254 metadata address), carrierGradeNat (100.64/10), uniqueLocal, ipv4Mapped
 * (`::ffff:127.0.0.1`), 6to4, teredo, multicast, reserved... are refused.
 */
export function forbiddenAddressReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bareHost(address));
  } catch {
    return "not an IP address";
  }
  const range = parsed.range();
  return range === "unicast" ? null : `${parsed.toString()} is a ${range} address`;
}

/**
 * Validates a URL to register (endpoint `url`, a transaction's `webhookUrl`). Any `http(s)`
 * URL without credentials in test mode; in live mode (unless `allowPrivate`) `https://` and a
 * host that is neither a local name nor a non-public IP literal. Returns the URL as sent.
 * Throws 400 `invalid_url` (param `param`).
 */
export function checkWebhookUrl(raw: string, livemode: boolean, allowPrivate: boolean, param = "url"): string {
  if (raw.length === 0 || raw.length > MAX_URL_LENGTH) throw invalidParam(param, `The URL must be 1-${MAX_URL_LENGTH} characters.`, "invalid_url");
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalidParam(param, "The URL is not a valid absolute URL.", "invalid_url");
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw invalidParam(param, "The URL must use http:// or https://.", "invalid_url");
  if (u.username || u.password) throw invalidParam(param, "The URL must not carry credentials.", "invalid_url");
  if (!u.hostname) throw invalidParam(param, "The URL has no host.", "invalid_url");
  if (!livemode || allowPrivate) return raw;
  if (u.protocol !== "https:") throw invalidParam(param, "Live-mode webhook URLs must use https://.", "invalid_url");
  const host = bareHost(u.hostname);
  if (isLocalName(host)) throw invalidParam(param, "Live-mode webhook URLs must point to a public address.", "invalid_url");
  if (ipaddr.isValid(host) && forbiddenAddressReason(host))
    throw invalidParam(param, "Live-mode webhook URLs must point to a public address.", "invalid_url");
  return raw;
}

/** Where to connect: the checked address, and the name for the Host header and TLS SNI. */
export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

/**
 * SSRF guard: resolves `hostname` (IP literals as themselves) and checks EVERY answer; the
 * first answer is returned so the caller connects to exactly the address that was checked
 * (no second lookup, so DNS rebinding cannot swap it). Returns `{refused}` with a reason
 * when any answer is non-public or the name resolves to nothing.
 */
export async function resolvePublicTarget(hostname: string, lookup: Lookup): Promise<ResolvedTarget | { refused: string }> {
  const host = bareHost(hostname);
  let answers: LookupAddress[];
  if (ipaddr.isValid(host)) answers = [{ address: host, family: ipaddr.parse(host).kind() === "ipv6" ? 6 : 4 }];
  else answers = await lookup(host);
  if (answers.length === 0) return { refused: `refused: ${host} did not resolve` };
  for (const a of answers) {
    const reason = forbiddenAddressReason(a.address);
    if (reason) return { refused: `refused: ${host} resolves to ${reason}` };
  }
  const first = answers[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
