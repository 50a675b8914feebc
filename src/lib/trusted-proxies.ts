/**
 * Trusted proxies (COFRE_TRUSTED_PROXIES) and the client address they vouch for: the socket peer,
 * or, when the peer is one of the merchant's own proxies, the X-Forwarded-For hop they appended.
 *
 * Why: behind a load balancer every request arrives from the balancer's address, so the login
 * throttle (src/domain/auth/throttle.ts) would count every user's failures as one address's and
 * 100 of them would lock every login for 15 minutes. Only headers written by trusted proxies may
 * be believed: a client can send any X-Forwarded-For it likes, so the walk goes from the right
 * (the hop the nearest proxy appended) and stops at the first address that is not a trusted proxy,
 * the rule of RFC 7239 section 7.4 and of Express's `trust proxy` with a subnet list.
 */
import { BlockList, isIP } from "node:net";

/** Thrown for a COFRE_TRUSTED_PROXIES entry that is neither an IP address nor a CIDR block; the message names it. */
export class TrustedProxyError extends Error {}

/**
 * Checks the entries of COFRE_TRUSTED_PROXIES: a comma-separated list of IPv4/IPv6 addresses and
 * CIDR blocks (`127.0.0.1, 10.0.0.0/8, fd00::/8`). Returns them trimmed, empty ones dropped.
 * Throws TrustedProxyError for a bad entry or prefix length.
 */
export function parseTrustedProxies(raw: string): string[] {
  const entries = raw
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  for (const entry of entries) addEntry(new BlockList(), entry);
  return entries;
}

function addEntry(list: BlockList, entry: string): void {
  const [address = "", prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) throw new TrustedProxyError(`"${entry}" is not an IP address or CIDR block`);
  const type = family === 4 ? "ipv4" : "ipv6";
  if (prefix === undefined) return void list.addAddress(address, type);
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  if (bits < 0 || bits > (family === 4 ? 32 : 128))
    throw new TrustedProxyError(`"${entry}" has a prefix length outside 0-${family === 4 ? 32 : 128}`);
  list.addSubnet(address, bits, type);
}

/**
 * The address as compared and counted: an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, what a
 * dual-stack socket reports) becomes its IPv4 form; a `1.2.3.4:5678` hop loses its port;
 * anything else that is not an IP address is null.
 */
export function normalizeAddress(raw: string): string | null {
  let a = raw.trim();
  if (a.startsWith("[") && a.includes("]")) a = a.slice(1, a.indexOf("]"));
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.indexOf(":"));
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(a);
  if (mapped) a = mapped[1]!;
  return isIP(a) === 0 ? null : a;
}

/** The merchant's proxies (COFRE_TRUSTED_PROXIES, checked by parseTrustedProxies); empty = trust no header. */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  constructor(entries: readonly string[]) {
    for (const entry of entries) addEntry(this.list, entry);
    this.empty = entries.length === 0;
  }

  /** Whether `address` (normalized) is one of the proxies. */
  has(address: string): boolean {
    return !this.empty && this.list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
  }

  /**
   * The client address of a request whose socket peer is `peer` and whose X-Forwarded-For header
   * is `forwardedFor` (null when absent): the peer when it is not a trusted proxy; else the
   * rightmost hop that is not one; the leftmost hop when all are. A hop that is not an IP address
   * ends the walk at the last trusted address seen (nothing left of it can be believed).
   * "unknown" when the peer cannot be told (in-process requests).
   */
  clientOf(peer: string | null, forwardedFor: string | null): string {
    let current = peer === null ? null : normalizeAddress(peer);
    if (current === null) return "unknown";
    if (!forwardedFor || !this.has(current)) return current;
    const hops = forwardedFor.split(",");
    for (let i = hops.length - 1; i >= 0 && this.has(current); i--) {
      const hop = normalizeAddress(hops[i]!);
      if (hop === null) break;
      current = hop;
    }
    return current;
  }
}
