/**
 * `cofre psp-sim init` and mutual TLS: the folder holds usable certificates and the operator
 * body pinned in extensions.md; every call without a client certificate, or with one from
 * another CA, fails the TLS handshake.
 */
import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as x509 from "@peculiar/x509";
import { createCa, issue } from "../../src/psp-sim/certs";
import { initSimDir } from "../../src/psp-sim/setup";
import { SimClient, startFixture, type SimFixture } from "./support";

const MAIN = join(import.meta.dir, "../../src/main.ts");
let fx: SimFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.cleanup());

describe("psp-sim init", () => {
  test("writes the CA, server, client and callback certificates that chain to the CA, with keys readable by the owner only", async () => {
    const dir = fx.init.dir;
    const ca = new x509.X509Certificate(readFileSync(join(dir, "ca.crt"), "utf8"));
    expect(ca.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(true);
    for (const [name, eku] of [
      ["server", "1.3.6.1.5.5.7.3.1"],
      ["client", "1.3.6.1.5.5.7.3.2"],
      ["callback", "1.3.6.1.5.5.7.3.2"],
    ] as const) {
      const cert = new x509.X509Certificate(readFileSync(join(dir, `${name}.crt`), "utf8"));
      expect(cert.issuer).toBe(ca.subject);
      expect(await cert.verify({ publicKey: ca.publicKey, date: new Date() })).toBe(true);
      expect(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([eku]);
      expect(statSync(join(dir, `${name}.key`)).mode & 0o777).toBe(0o600);
    }
    const server = new x509.X509Certificate(readFileSync(join(dir, "server.crt"), "utf8"));
    const names = server
      .getExtension(x509.SubjectAlternativeNameExtension)!
      .names.toJSON()
      .map((n) => n.value);
    expect(names).toEqual(expect.arrayContaining(["localhost", "127.0.0.1"]));
    expect(statSync(join(dir, "ca.key")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "pix-provider.json")).mode & 0o777).toBe(0o600);
  });

  test("pix-provider.json is the operator body of extensions.md with the client certificate, key and CA", () => {
    const body = JSON.parse(readFileSync(join(fx.init.dir, "pix-provider.json"), "utf8"));
    expect(Object.keys(body).sort()).toEqual(
      [
        "type",
        "api_url",
        "token_url",
        "client_id",
        "client_secret",
        "certificate",
        "private_key",
        "ca_certificates",
        "pix_key",
      ].sort(),
    );
    expect(body.type).toBe("bcb_pix_v2");
    expect(body.api_url).toBe("https://127.0.0.1:0/api/v2");
    expect(body.token_url).toBe("https://127.0.0.1:0/oauth/token");
    expect(body.certificate).toBe(readFileSync(join(fx.init.dir, "client.crt"), "utf8"));
    expect(body.private_key).toBe(readFileSync(join(fx.init.dir, "client.key"), "utf8"));
    expect(body.ca_certificates).toBe(readFileSync(join(fx.init.dir, "ca.crt"), "utf8"));
    expect(body.pix_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.client_secret.length).toBeGreaterThanOrEqual(32);
  });

  test("refuses a folder that already holds a simulator, leaving its certificates untouched", async () => {
    const before = readFileSync(join(fx.init.dir, "ca.crt"), "utf8");
    await expect(initSimDir(fx.init.dir)).rejects.toThrow(/already holds a psp-sim/);
    expect(readFileSync(join(fx.init.dir, "ca.crt"), "utf8")).toBe(before);
  });

  test("the CLI prints the operator PUT command for the account and exits 0; a bad port is a usage error (exit 2)", () => {
    const root = mkdtempSync(join(tmpdir(), "psp-sim-cli-"));
    try {
      const ok = Bun.spawnSync([
        "bun",
        MAIN,
        "psp-sim",
        "init",
        join(root, "s"),
        "--port",
        "9443",
        "--account",
        "acct_123",
        "--cofre-url",
        "http://127.0.0.1:3000",
      ]);
      const out = ok.stdout.toString();
      expect(ok.exitCode).toBe(0);
      expect(out).toContain("curl -sS -X PUT 'http://127.0.0.1:3000/v1/operator/accounts/acct_123/pix-provider'");
      expect(out).toContain('-H "Authorization: Bearer $COFRE_OPERATOR_TOKEN"');
      expect(out).toContain(`--data @'${join(root, "s", "pix-provider.json")}'`);
      expect(JSON.parse(readFileSync(join(root, "s", "pix-provider.json"), "utf8")).api_url).toBe(
        "https://127.0.0.1:9443/api/v2",
      );
      const bad = Bun.spawnSync(["bun", MAIN, "psp-sim", "init", join(root, "t"), "--port", "99999"]);
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr.toString()).toContain("--port must be 1-65535");
      expect(existsSync(join(root, "t"))).toBe(false);
      const missing = Bun.spawnSync(["bun", MAIN, "psp-sim", "--dir", join(root, "nothing"), "--port", "0"]);
      expect(missing.exitCode).toBe(2);
      expect(missing.stderr.toString()).toContain("psp-sim init");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("mutual TLS on every call", () => {
  test("a call without a client certificate fails the TLS handshake", async () => {
    for (const url of [fx.sim.tokenUrl, `${fx.sim.apiUrl}/pix`, `${fx.sim.origin}/_sim/state`]) {
      const err = await fetch(url, { tls: { ca: fx.init.body.ca_certificates } } as RequestInit).then(
        () => null,
        (e) => e,
      );
      expect(err).toBeInstanceOf(Error);
    }
  });

  test("a client certificate from another CA fails the TLS handshake", async () => {
    const other = await createCa("intruder CA");
    const intruder = await issue(other, "intruder", "client");
    const err = await new SimClient(fx, intruder).login().then(
      () => null,
      (e) => e,
    );
    expect(err).toBeInstanceOf(Error);
  });

  test("the merchant certificate gets through: an API call without a token is 401, the token call 200", async () => {
    const c = new SimClient(fx);
    const none = await c.api("GET", "/webhook");
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      type: "about:blank",
      title: "Unauthorized",
      status: 401,
      detail: "missing bearer token",
    });
    expect((await c.login()).status).toBe(200);
    expect((await c.api("GET", "/webhook")).status).toBe(200);
  });

  test("the server presents a certificate for 127.0.0.1 chained to the simulator CA (a client trusting only the system roots refuses it)", async () => {
    const err = await fetch(fx.sim.tokenUrl, {
      tls: { cert: fx.init.body.certificate, key: fx.init.body.private_key },
    } as RequestInit).then(
      () => null,
      (e) => e,
    );
    expect(err).toBeInstanceOf(Error);
  });
});
