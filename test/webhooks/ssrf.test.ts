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
    for (const bad of [
      "127.0.0.1",
      "10.0.0.5",
      "172.16.3.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "fd12::1",
      "fe80::1",
      "::",
      "224.0.0.1",
    ])
      expect({ bad, reason: forbiddenAddressReason(bad) === null }).toEqual({ bad, reason: false });
    for (const good of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])
      expect(forbiddenAddressReason(good)).toBeNull();
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
      await emitChargePaid(h, a.accountId, true);
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
    await emitChargePaid(h, a.accountId, true);
    await h.deps.jobs.drain();
    expect(lookups).toBe(1);
    expect(seen).toEqual([
      { url: "https://93.184.216.34:8443/cofre?x=1", host: "hooks.example.com:8443", serverName: "hooks.example.com" },
    ]);
    expect((await onlyDelivery(h, a.liveKey)).status).toBe("DELIVERED");
  });

  test("with COFRE_WEBHOOK_ALLOW_PRIVATE a live endpoint on 127.0.0.1 is delivered", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
    const rx = startReceiver();
    receivers.push(rx);
    const a = await h.seedAccount();
    await register(h, a.liveKey, rx.url);
    await emitChargePaid(h, a.accountId, true);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(1);
    expect((await onlyDelivery(h, a.liveKey)).status).toBe("DELIVERED");
  });

  test("with COFRE_WEBHOOK_ALLOW_PRIVATE a test-mode endpoint on localhost is delivered (local development)", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
    const rx = startReceiver();
    receivers.push(rx);
    const a = await h.seedAccount();
    await register(h, a.testKey, rx.url.replace("127.0.0.1", "localhost"));
    await emitChargePaid(h, a.accountId, false);
    await h.deps.jobs.drain();
    expect((await onlyDelivery(h, a.testKey)).status).toBe("DELIVERED");
  });
});

/** Every IPv6 form that carries an IPv4 address inside it (extensions.md "Webhook targets and private addresses"). */
const EMBEDDED_IPV4 = [
  ["IPv4-compatible loopback", "::127.0.0.1"],
  ["IPv4-compatible private", "::10.0.0.1"],
  ["IPv4-compatible public", "::8.8.8.8"],
  ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
  ["IPv4-mapped public", "::ffff:8.8.8.8"],
  ["NAT64 well-known prefix", "64:ff9b::7f00:1"],
  ["NAT64 well-known prefix, public inside", "64:ff9b::808:808"],
  ["NAT64 local-use prefix", "64:ff9b:1::a00:1"],
  ["6to4", "2002:7f00:1::1"],
  ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
] as const;

describe("SSRF guard: IPv6 forms that embed IPv4", () => {
  test("every embedding form is refused by the classifier, whatever the IPv4 address inside", () => {
    for (const [name, address] of EMBEDDED_IPV4) {
      const reason = forbiddenAddressReason(address);
      expect({ name, reason: typeof reason === "string" && /embedding IPv4/.test(reason) }).toEqual({
        name,
        reason: true,
      });
    }
    // As the URL parser writes [::127.0.0.1] (ipaddr.js would read the dotted form as IPv4-mapped).
    expect(forbiddenAddressReason("::7f00:1")).toBe(
      "::7f00:1 is an IPv4-compatible (::a.b.c.d) address embedding IPv4 127.0.0.1",
    );
    expect(forbiddenAddressReason("2606:4700:4700::1111")).toBeNull();
  });

  for (const mode of ["test", "live"] as const)
    test(`a ${mode}-mode endpoint at https://[::127.0.0.1]/hook is refused with 400 webhook_url_not_allowed and nothing is stored`, async () => {
      const h = createHarness();
      const a = await h.seedAccount();
      const key = mode === "live" ? a.liveKey : a.testKey;
      for (const [, address] of EMBEDDED_IPV4) {
        const r = await h.call("POST", "/v1/webhooks/endpoints", {
          key,
          body: { url: `https://[${address}]/hook`, events: ["charge.paid"] },
        });
        expect({ address, status: r.status, code: r.body.error?.code, param: r.body.error?.param }).toEqual({
          address,
          status: 400,
          code: "webhook_url_not_allowed",
          param: "url",
        });
        expect(r.body.error.message).toContain("COFRE_WEBHOOK_ALLOW_PRIVATE=1");
      }
      expect((await h.call("GET", "/v1/webhooks/endpoints", { key })).body).toEqual({ data: [] });
    });

  for (const [name, address] of [
    ["::127.0.0.1", "::127.0.0.1"],
    ["NAT64 64:ff9b::a9fe:a9fe", "64:ff9b::a9fe:a9fe"],
    ["6to4", "2002:a00:1::1"],
  ] as const)
    test(`a live endpoint whose name resolves to ${name} is never contacted`, async () => {
      const h = createHarness({}, new Date().toISOString());
      const calls: string[] = [];
      configureWebhookRuntime(h.deps, {
        random: () => 0.5,
        lookup: async () => [{ address, family: 6 }],
        fetch: async (url) => {
          calls.push(url);
          return new Response("secret");
        },
      });
      const a = await h.seedAccount();
      await register(h, a.liveKey, "https://rebind.example.com/hook");
      await emitChargePaid(h, a.accountId, true);
      await h.deps.jobs.drain();
      expect(calls).toEqual([]);
      const d = await onlyDelivery(h, a.liveKey);
      expect(d).toMatchObject({ status: "PENDING", attempts: 1, lastStatusCode: null, lastResponseBody: null });
      expect(d.lastError).toMatch(/^refused: rebind\.example\.com resolves to .*embedding IPv4/);
    });
});

describe("SSRF guard: test mode has the same rule", () => {
  for (const url of [
    "http://127.0.0.1:8080/hook",
    "http://localhost:8080/hook",
    "http://10.0.0.5/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]/hook",
  ])
    test(`a test-mode endpoint at ${url} is refused with 400 webhook_url_not_allowed`, async () => {
      const h = createHarness();
      const a = await h.seedAccount();
      const r = await h.call("POST", "/v1/webhooks/endpoints", {
        key: a.testKey,
        body: { url, events: ["charge.paid"] },
      });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({
        type: "invalid_request_error",
        code: "webhook_url_not_allowed",
        param: "url",
      });
      expect(r.body.error.message).toContain("COFRE_WEBHOOK_ALLOW_PRIVATE=1");
      expect((await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey })).body).toEqual({ data: [] });
    });

  test("PATCH of a test-mode endpoint to a loopback URL is refused and the URL stays", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const ep = await register(h, a.testKey, "http://hooks.example.com/x");
    const p = await h.call("PATCH", `/v1/webhooks/endpoints/${ep.id}`, {
      key: a.testKey,
      body: { url: "http://127.0.0.1:9/x" },
    });
    expect(p.status).toBe(400);
    expect(p.body.error.code).toBe("webhook_url_not_allowed");
    expect((await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey })).body.data[0].url).toBe(
      "http://hooks.example.com/x",
    );
  });

  test("a test-mode transaction with a loopback webhookUrl is refused and nothing is created", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/payments", {
      key: a.testKey,
      body: {
        idempotencyKey: "ssrf-tx-0001",
        amount: 1000,
        currency: "BRL",
        paymentMethods: ["PIX"],
        webhookUrl: "http://127.0.0.1:6379/",
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "webhook_url_not_allowed", param: "webhookUrl" });
    expect((await h.call("GET", "/v1/payments", { key: a.testKey })).body.total).toBe(0);
  });

  test("a test-mode endpoint that resolves to an internal service is never contacted and its answer never stored", async () => {
    const h = createHarness({}, new Date().toISOString());
    const rx = startReceiver(() => new Response("internal secret", { status: 200 }));
    receivers.push(rx);
    const port = new URL(rx.url).port;
    configureWebhookRuntime(h.deps, { random: () => 0.5, lookup: async () => [{ address: "127.0.0.1", family: 4 }] });
    const a = await h.seedAccount();
    await register(h, a.testKey, `http://internal.example.com:${port}/hook`);
    await emitChargePaid(h, a.accountId, false);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(0);
    const d = await onlyDelivery(h, a.testKey);
    expect(d).toMatchObject({ status: "PENDING", attempts: 1, lastStatusCode: null, lastResponseBody: null });
    expect(d.lastError).toBe("refused: internal.example.com resolves to 127.0.0.1 is a loopback address");
  });
});
