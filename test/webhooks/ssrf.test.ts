import { afterEach, describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { configureWebhookRuntime, webhookRuntime } from "../../src/domain/webhooks/runtime";
import { forbiddenAddressReason, resolvePublicTarget } from "../../src/domain/webhooks/url-rules";
import { emitChargePaid, onlyDelivery, register, startReceiver, type Receiver } from "./support";

const receivers: Receiver[] = [];
afterEach(() => {
  while (receivers.length) receivers.pop()!.stop();
});

describe("SSRF guard: address classification", () => {
  test("only public unicast addresses pass", () => {
    for (const bad of ["127.0.0.1", "10.0.0.5", "172.16.3.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "fd12::1", "fe80::1", "::", "224.0.0.1"])
      expect({ bad, reason: forbiddenAddressReason(bad) === null }).toEqual({ bad, reason: false });
    for (const good of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"]) expect(forbiddenAddressReason(good)).toBeNull();
  });

  test("a host name that resolves to loopback is refused by its DNS answer", async () => {
    const r = await resolvePublicTarget("localhost", webhookRuntime(createHarness().deps).lookup);
    expect("refused" in r && r.refused).toMatch(/^refused: localhost resolves to .*loopback/);
  });

  test("one private answer among public ones refuses the host", async () => {
    const r = await resolvePublicTarget("mixed.example.com", async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ]);
    expect(r).toEqual({ refused: "refused: mixed.example.com resolves to 10.0.0.7 is a private address" });
  });
});

describe("SSRF guard: live deliveries", () => {
  for (const [name, address, family] of [
    ["127.0.0.1", "127.0.0.1", 4],
    ["10.x", "10.1.2.3", 4],
    ["the metadata address", "169.254.169.254", 4],
    ["[::1]", "::1", 6],
    ["::ffff:127.0.0.1", "::ffff:127.0.0.1", 6],
    ["CGNAT", "100.64.1.1", 4],
  ] as const) {
    test(`a live endpoint whose host resolves to ${name} is refused at connect time`, async () => {
      const h = createHarness({}, new Date().toISOString());
      const calls: string[] = [];
      configureWebhookRuntime(h.deps, {
        random: () => 0.5,
        lookup: async () => [{ address, family }],
        fetch: async (url) => {
          calls.push(url);
          return new Response("should not be called");
        },
      });
      const a = await h.seedAccount();
      await register(h, a.liveKey, "https://rebind.example.com/hook");
      emitChargePaid(h, a.accountId, true);
      await h.deps.jobs.drain();
      expect(calls).toEqual([]);
      const d = await onlyDelivery(h, a.liveKey);
      expect(d).toMatchObject({ status: "PENDING", attempts: 1, lastStatusCode: null });
      expect(d.lastError).toStartWith("refused: rebind.example.com resolves to");
    });
  }

  test("a live endpoint that resolves publicly is contacted at the checked address with its Host and TLS name", async () => {
    const h = createHarness({}, new Date().toISOString());
    const seen: { url: string; host?: string; serverName?: string }[] = [];
    let lookups = 0;
    configureWebhookRuntime(h.deps, {
      lookup: async () => {
        lookups++;
        return [{ address: "93.184.216.34", family: 4 }];
      },
      fetch: async (url, init) => {
        const headers = init.headers as Record<string, string>;
        seen.push({ url, host: headers.Host, serverName: (init as { tls?: { serverName?: string } }).tls?.serverName });
        return new Response("ok");
      },
    });
    const a = await h.seedAccount();
    await register(h, a.liveKey, "https://hooks.example.com:8443/cofre?x=1");
    emitChargePaid(h, a.accountId, true);
    await h.deps.jobs.drain();
    expect(lookups).toBe(1);
    expect(seen).toEqual([{ url: "https://93.184.216.34:8443/cofre?x=1", host: "hooks.example.com:8443", serverName: "hooks.example.com" }]);
    expect((await onlyDelivery(h, a.liveKey)).status).toBe("DELIVERED");
  });

  test("with COFRE_WEBHOOK_ALLOW_PRIVATE a live endpoint on 127.0.0.1 is delivered", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
    const rx = startReceiver();
    receivers.push(rx);
    const a = await h.seedAccount();
    await register(h, a.liveKey, rx.url);
    emitChargePaid(h, a.accountId, true);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(1);
    expect((await onlyDelivery(h, a.liveKey)).status).toBe("DELIVERED");
  });

  test("test-mode endpoints may use localhost (sandbox demos)", async () => {
    const h = createHarness({}, new Date().toISOString());
    const rx = startReceiver();
    receivers.push(rx);
    const a = await h.seedAccount();
    await register(h, a.testKey, rx.url.replace("127.0.0.1", "localhost"));
    emitChargePaid(h, a.accountId, false);
    await h.deps.jobs.drain();
    expect((await onlyDelivery(h, a.testKey)).status).toBe("DELIVERED");
  });
});
