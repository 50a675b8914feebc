/**
 * Secrets of a Pix provider connection (issue 14 §2): the client secret and the private key are
 * never returned and never logged (every response and every log line of a connect / read /
 * delete cycle, failures included, is searched for them), and are stored sealed (AES-256-GCM,
 * bound to the connection and field).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { aadOf, openConnection } from "../../src/domain/pix-provider/secrets";
import { createLogger } from "../../src/lib/logger";
import { open, SecretBoxError } from "../../src/lib/secret-box";
import { createHarness, type Harness, type TestResponse } from "../support/harness";
import { startFixture, type SimFixture } from "../psp-sim/support";
import { BcbPixClient } from "../../src/providers/bcb-pix-v2/client";
import { connectionPath, OPERATOR_TOKEN } from "./support";

let fx: SimFixture;
let h: Harness;
const lines: string[] = [];
beforeAll(async () => {
  fx = await startFixture();
  h = createHarness(
    { operatorToken: OPERATOR_TOKEN },
    undefined,
    createLogger("trace", { write: (s: string) => void lines.push(s) }),
  );
});
afterAll(() => fx.cleanup());

const body = () => ({ ...fx.init.body, api_url: fx.sim.apiUrl, token_url: fx.sim.tokenUrl });
/** The base64 body of a PEM (what would leak if a key were logged without its armour). */
const pemBody = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");

describe("secrets are never returned or logged", () => {
  test("no response and no log line of a connect, refused connect, read, replace and delete cycle holds the client secret or the private key", async () => {
    const a = await h.seedAccount();
    const path = connectionPath(a.accountId);
    const answers: TestResponse[] = [];
    const call = async (method: string, b?: unknown) => {
      const r = await h.call(method, path, { bearer: OPERATOR_TOKEN, ...(b === undefined ? {} : { body: b }) });
      answers.push(r);
      return r;
    };
    const good = body();
    expect((await call("PUT", { ...good, client_secret: `${good.client_secret}x` })).status).toBe(422);
    expect((await call("PUT", good)).status).toBe(200);
    expect((await call("GET")).status).toBe(200);
    expect((await call("PUT", { ...good, pix_key: "not-this-clients-key" })).status).toBe(200); // webhook refused: a warn line
    expect(
      (await call("PUT", { ...good, private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n" }))
        .status,
    ).toBe(400);
    expect((await call("DELETE")).status).toBe(204);
    expect((await call("GET")).status).toBe(404);

    expect(lines.some((l) => l.includes('"level":40') && l.includes("webhook registration"))).toBe(true);
    const secrets = [
      good.client_secret,
      good.private_key,
      pemBody(good.private_key),
      pemBody(good.private_key).slice(0, 40),
    ];
    for (const secret of secrets) {
      for (const r of answers) {
        expect(r.text).not.toContain(secret);
        for (const [, v] of r.headers) expect(v).not.toContain(secret);
      }
      for (const line of lines) expect(line).not.toContain(secret);
    }
  });
});

describe("secrets at rest", () => {
  test("the row holds the secret and the key sealed, and they open only under the deps key in their own place", async () => {
    const a = await h.seedAccount();
    const good = body();
    const r = await h.call("PUT", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN, body: good });
    expect(r.status).toBe(200);
    const row = (await h.deps.store.read.pixProvider.byId(r.body.id))!;
    const raw = JSON.stringify(row);
    expect(raw).not.toContain(good.client_secret);
    expect(raw).not.toContain(pemBody(good.private_key).slice(0, 40));
    expect(row.clientSecretSealed).toStartWith("v1.");
    const key = await h.deps.secretsKey;
    expect(await open(key, row.clientSecretSealed, aadOf(row.id, "client_secret"))).toBe(good.client_secret);
    expect(await open(key, row.privateKeySealed, aadOf(row.id, "private_key"))).toBe(good.private_key);
    // Moved to the other field, or to another connection, a sealed value does not open.
    await expect(open(key, row.clientSecretSealed, aadOf(row.id, "private_key"))).rejects.toBeInstanceOf(
      SecretBoxError,
    );
    await expect(open(key, row.clientSecretSealed, aadOf("ppc_other", "client_secret"))).rejects.toBeInstanceOf(
      SecretBoxError,
    );
    // The sealed secret is what Cofre uses: the stored connection still reaches the PSP.
    const client = new BcbPixClient(await openConnection(key, row), { fetch, clock: h.clock });
    const hook = await client.call<{ webhookUrl: string }>("GET", `/webhook/${good.pix_key}`);
    expect(hook.kind === "ok" && hook.body.webhookUrl).toBe(r.body.webhook_url);
  });
});
