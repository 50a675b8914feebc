/** Trusted proxies and the client address they vouch for (src/lib/trusted-proxies.ts; COFRE_TRUSTED_PROXIES). */
import { describe, expect, test } from "bun:test";
import {
  TrustedProxies,
  TrustedProxyError,
  normalizeAddress,
  parseTrustedProxies,
} from "../../src/lib/trusted-proxies";

const LB = "10.0.0.5";
const proxies = new TrustedProxies(["10.0.0.0/24", "192.0.2.1", "fd00::/8"]);

describe("the client address", () => {
  test("is the socket peer when the peer is not a trusted proxy, whatever X-Forwarded-For says", () => {
    expect(proxies.clientOf("198.51.100.9", "203.0.113.7")).toBe("198.51.100.9");
    expect(proxies.clientOf("10.0.1.5", "203.0.113.7")).toBe("10.0.1.5");
  });

  test("is the hop the trusted proxy appended when the peer is one", () => {
    expect(proxies.clientOf(LB, "203.0.113.7")).toBe("203.0.113.7");
    expect(proxies.clientOf("fd00::1", "2001:db8::7")).toBe("2001:db8::7");
  });

  test("is the rightmost untrusted hop: what the client wrote to the left of it is not believed", () => {
    expect(proxies.clientOf(LB, "198.51.100.1, 203.0.113.7")).toBe("203.0.113.7");
  });

  test("walks through a chain of trusted proxies", () => {
    expect(proxies.clientOf(LB, "198.51.100.1, 203.0.113.7, 192.0.2.1, 10.0.0.9")).toBe("203.0.113.7");
  });

  test("is the leftmost hop when every hop is a trusted proxy", () => {
    expect(proxies.clientOf(LB, "10.0.0.7, 10.0.0.8")).toBe("10.0.0.7");
  });

  test("stops at a hop that is not an address, keeping the last trusted one", () => {
    expect(proxies.clientOf(LB, "203.0.113.7, not-an-ip")).toBe(LB);
    expect(proxies.clientOf(LB, "203.0.113.7, unknown, 10.0.0.7")).toBe("10.0.0.7");
  });

  test("is the peer when there is no X-Forwarded-For or no trusted proxy at all", () => {
    expect(proxies.clientOf(LB, null)).toBe(LB);
    expect(new TrustedProxies([]).clientOf(LB, "203.0.113.7")).toBe(LB);
  });

  test('is "unknown" when the peer cannot be told', () => {
    expect(proxies.clientOf(null, "203.0.113.7")).toBe("unknown");
    expect(proxies.clientOf("", "203.0.113.7")).toBe("unknown");
  });

  test("reads IPv4-mapped peers and hops with ports as the plain IPv4 address", () => {
    expect(proxies.clientOf(`::ffff:${LB}`, "203.0.113.7:51234")).toBe("203.0.113.7");
    expect(proxies.clientOf(LB, "[2001:db8::7]:443")).toBe("2001:db8::7");
  });
});

describe("addresses", () => {
  test("are normalized or refused", () => {
    expect(normalizeAddress(" ::FFFF:10.1.2.3 ")).toBe("10.1.2.3");
    expect(normalizeAddress("10.1.2.3:80")).toBe("10.1.2.3");
    expect(normalizeAddress("::1")).toBe("::1");
    expect(normalizeAddress("localhost")).toBeNull();
    expect(normalizeAddress("300.1.2.3")).toBeNull();
  });
});

describe("COFRE_TRUSTED_PROXIES", () => {
  test("takes addresses and CIDR blocks, comma-separated, blanks ignored", () => {
    expect(parseTrustedProxies(" 127.0.0.1 ,, 10.0.0.0/8,::1, fd00::/8 ")).toEqual([
      "127.0.0.1",
      "10.0.0.0/8",
      "::1",
      "fd00::/8",
    ]);
    expect(parseTrustedProxies("")).toEqual([]);
  });

  test("refuses a host name, a bad prefix or a malformed block, naming the entry", () => {
    for (const bad of ["lb.internal", "10.0.0.0/33", "fd00::/129", "10.0.0.0/8/1", "10.0.0.0/x", "10.0.0.0/"]) {
      expect(() => parseTrustedProxies(`127.0.0.1, ${bad}`)).toThrow(TrustedProxyError);
      expect(() => parseTrustedProxies(bad)).toThrow(`"${bad}"`);
    }
  });

  test("a /0 block trusts every address of its family, and only of it", () => {
    const all4 = new TrustedProxies(["0.0.0.0/0"]);
    expect(all4.has("203.0.113.7")).toBe(true);
    expect(all4.has("2001:db8::1")).toBe(false);
  });
});
