/** Environment -> configuration (extensions.md "Running it"). */
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config";

describe("defaults", () => {
  test("an empty environment gives the documented defaults", () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe("0.0.0.0");
    expect(c.dataDir).toBe("./data");
    expect(c.publicUrl).toBe("http://localhost:3000");
    expect(c.checkoutUrlBase).toBe("http://localhost:3000/c");
    expect(c.operatorToken).toBeNull();
    expect(c.testClock).toBe(false);
    expect(c.webhookAllowPrivate).toBe(false);
    expect(c.rateLimitPerMinute).toBe(6000);
    expect(c.logLevel).toBe("info");
    expect(c.maxBodyBytes).toBe(1024 * 1024);
    expect(c.trustedProxies).toEqual([]);
  });

  test("the public URL follows PORT and the checkout base follows the public URL", () => {
    expect(loadConfig({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    const c = loadConfig({ COFRE_PUBLIC_URL: "https://pay.example.com/" });
    expect(c.publicUrl).toBe("https://pay.example.com");
    expect(c.checkoutUrlBase).toBe("https://pay.example.com/c");
    expect(loadConfig({ COFRE_CHECKOUT_URL_BASE: "https://checkout.example.com/x/" }).checkoutUrlBase).toBe(
      "https://checkout.example.com/x",
    );
  });

  test("every variable is read", () => {
    const c = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      COFRE_DATA_DIR: "/var/lib/cofre",
      COFRE_OPERATOR_TOKEN: "op-secret",
      COFRE_TEST_CLOCK: "1",
      COFRE_WEBHOOK_ALLOW_PRIVATE: "1",
      COFRE_RATE_LIMIT_PER_MINUTE: "0",
      COFRE_MAX_BODY_BYTES: "2048",
      COFRE_TRUSTED_PROXIES: " 10.0.0.0/8, ::1 ,",
      LOG_LEVEL: "warn",
    });
    expect(c).toMatchObject({
      port: 0,
      host: "127.0.0.1",
      dataDir: "/var/lib/cofre",
      operatorToken: "op-secret",
      testClock: true,
      webhookAllowPrivate: true,
      rateLimitPerMinute: 0,
      maxBodyBytes: 2048,
      trustedProxies: ["10.0.0.0/8", "::1"],
      logLevel: "warn",
    });
  });

  test("switches are on only for exactly 1", () => {
    const c = loadConfig({ COFRE_TEST_CLOCK: "true", COFRE_WEBHOOK_ALLOW_PRIVATE: "yes" });
    expect(c.testClock).toBe(false);
    expect(c.webhookAllowPrivate).toBe(false);
  });
});

describe("errors", () => {
  for (const [name, value] of [
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "-1"],
    ["PORT", "80.5"],
    ["COFRE_RATE_LIMIT_PER_MINUTE", "-5"],
    ["COFRE_RATE_LIMIT_PER_MINUTE", "lots"],
    ["COFRE_MAX_BODY_BYTES", "0"],
    ["LOG_LEVEL", "verbose"],
    ["COFRE_TRUSTED_PROXIES", "haproxy.internal"],
    ["COFRE_TRUSTED_PROXIES", "10.0.0.0/33"],
    ["COFRE_TRUSTED_PROXIES", "10.0.0.1, fd00::/129"],
  ] as const) {
    test(`${name}=${value} is a ConfigError naming the variable`, () => {
      let err: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(name);
    });
  }
});

describe("COFRE_SECRETS_KEY", () => {
  test("is null when unset and kept as given when it is base64 of 32 bytes", () => {
    expect(loadConfig({}).secretsKey).toBeNull();
    const key = Buffer.alloc(32, 7).toString("base64");
    expect(loadConfig({ COFRE_SECRETS_KEY: key }).secretsKey).toBe(key);
    expect(loadConfig({ COFRE_SECRETS_KEY: Buffer.alloc(32, 7).toString("base64url") }).secretsKey).toBe(
      Buffer.alloc(32, 7).toString("base64url"),
    );
  });

  test("refuses a value that is not base64 of 32 bytes, naming the variable and never echoing it", () => {
    for (const bad of ["not base64!", Buffer.alloc(16).toString("base64"), Buffer.alloc(33).toString("base64")]) {
      let err: unknown;
      try {
        loadConfig({ COFRE_SECRETS_KEY: bad });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toStartWith("COFRE_SECRETS_KEY must be base64 of 32 bytes");
      expect((err as Error).message).not.toContain(bad);
    }
  });
});
