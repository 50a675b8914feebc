/**
 * Destination rules for webhook URLs: what may be registered (interface.md "Webhooks";
 * extensions.md "Webhook targets and private addresses") and the SSRF guard applied at connect
 * time to every delivery, test and live mode alike (DNS answers checked, not just the hostname),
 * both lifted only by `COFRE_WEBHOOK_ALLOW_PRIVATE=1`.
 */
import ipaddr from "ipaddr.js";
import { invalidParam } from "../errors";

/** How a developer allows loopback/private targets (said in every refusal). */
export const ALLOW_PRIVATE_HINT =
  "to deliver to loopback or private addresses in local development, start Cofre with COFRE_WEBHOOK_ALLOW_PRIVATE=1";

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

/** ipaddr.js IPv6 ranges whose addresses carry an IPv4 address inside them. */
const EMBEDS_IPV4: Record<string, string> = Object.assign(Object.create(null), {
  ipv4Mapped: "IPv4-mapped (::ffff:a.b.c.d)",
  rfc6052: "NAT64 (64:ff9b::/96, RFC 6052)",
  rfc6145: "IPv4-translated (RFC 6145)",
  "6to4": "6to4 (2002::/16)",
  teredo: "Teredo (2001::/32)",
});

/**
 * Why `address` (an IP literal) must not be contacted, or null when it is public unicast.
 * Allowlist: only ipaddr.js range `unicast` passes; loopback, private, linkLocal (incl. the
 * 169.254.169.254 metadata address), carrierGradeNat (100.64/10), uniqueLocal, multicast,
 * reserved... are refused, and so is EVERY IPv6 form that embeds an IPv4 address, whatever that
 * address (extensions.md): mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d` (deprecated by
 * RFC 4291 2.5.5.1; ipaddr.js calls it unicast, so the zero /96 prefix is checked here), NAT64
 * `64:ff9b::/96` and `64:ff9b:1::/48`, IPv4-translated, 6to4 `2002::/16` and Teredo `2001::/32`:
 * a gateway on the path would turn them into the IPv4 address inside.
 */
export function forbiddenAddressReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bareHost(address));
  } catch {
    return "not an IP address";
  }
  const range = parsed.range();
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    const embeds = Object.hasOwn(EMBEDS_IPV4, range) ? EMBEDS_IPV4[range] : undefined;
    if (embeds) return `${v6.toString()} is an ${embeds} address embedding IPv4`;
    const p = v6.parts;
    if (range === "unicast" && p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0)
      return `${v6.toString()} is an IPv4-compatible (::a.b.c.d) address embedding IPv4 ${p[6]! >> 8}.${p[6]! & 255}.${p[7]! >> 8}.${p[7]! & 255}`;
  }
  return range === "unicast" ? null : `${parsed.toString()} is a ${range} address`;
}

/** Characters RFC 3986 allows in a URI (unreserved, reserved and `%` of percent-encodings). */
const URI_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/**
 * Validates a URL to register (endpoint `url`, a transaction's `webhookUrl`): an absolute
 * `http(s)` URL without credentials (else 400 `invalid_url`); in live mode `https://` (else 400
 * `invalid_url`); in BOTH modes a host that is neither a local name (localhost, *.local,
 * *.internal) nor a non-public IP literal (else 400 `webhook_url_not_allowed`, whose message says
 * how to allow them). `allowPrivate` (COFRE_WEBHOOK_ALLOW_PRIVATE) lifts the last two rules.
 * Returns the URL as sent; errors carry param `param`. Names are checked again by their DNS
 * answers at connect time (resolvePublicTarget).
 */
export function checkWebhookUrl(raw: string, livemode: boolean, allowPrivate: boolean, param = "url"): string {
  if (raw.length === 0 || raw.length > MAX_URL_LENGTH)
    throw invalidParam(param, `The URL must be 1-${MAX_URL_LENGTH} characters.`, "invalid_url");
  // RFC 3986 (what the contract's `format: uri` means): ASCII without spaces, controls, `<>"{}|\^\``
  // or bidi overrides. The URL is stored and shown as sent, so WHATWG's lenient parsing (which would
  // percent-encode them) is not enough; an international name goes in its punycode form.
  if (!URI_CHARS.test(raw))
    throw invalidParam(
      param,
      "The URL has characters a URI may not contain (RFC 3986); percent-encode them.",
      "invalid_url",
    );
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalidParam(param, "The URL is not a valid absolute URL.", "invalid_url");
  }
  if (u.protocol !== "https:" && u.protocol !== "http:")
    throw invalidParam(param, "The URL must use http:// or https://.", "invalid_url");
  if (u.username || u.password) throw invalidParam(param, "The URL must not carry credentials.", "invalid_url");
  if (!u.hostname) throw invalidParam(param, "The URL has no host.", "invalid_url");
  if (allowPrivate) return raw;
  if (livemode && u.protocol !== "https:")
    throw invalidParam(param, "Live-mode webhook URLs must use https://.", "invalid_url");
  const host = bareHost(u.hostname);
  const reason = isLocalName(host)
    ? `${host} is a local name`
    : ipaddr.isValid(host)
      ? forbiddenAddressReason(host)
      : null;
  if (reason)
    throw invalidParam(
      param,
      `Webhook URLs must point to a public address (${reason}); ${ALLOW_PRIVATE_HINT}.`,
      "webhook_url_not_allowed",
    );
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
export async function resolvePublicTarget(
  hostname: string,
  lookup: Lookup,
): Promise<ResolvedTarget | { refused: string }> {
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
