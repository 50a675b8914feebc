import { afterAll, describe, expect, test } from "bun:test";
import { createDecipheriv } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importSecretsKey, open, resolveSecretsKeyBytes, seal, SecretBoxError } from "../../src/lib/secret-box";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "cofre-secrets-"));
  dirs.push(d);
  return d;
};
const KEY_B64 = Buffer.alloc(32, 7).toString("base64");

describe("secret box: happy path", () => {
  test("a sealed value opens with the same key and place, and node's own AES-256-GCM reads it too", async () => {
    const raw = resolveSecretsKeyBytes(KEY_B64, ":memory:");
    const key = await importSecretsKey(raw);
    const sealed = await seal(key, "client-secret-ção", "pix_provider:ppc_1:client_secret");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain("client-secret");
    expect(await open(key, sealed, "pix_provider:ppc_1:client_secret")).toBe("client-secret-ção");

    const [, ivText, body] = sealed.split(".");
    const bytes = Buffer.from(body!, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", Buffer.from(raw), Buffer.from(ivText!, "base64url"));
    decipher.setAAD(Buffer.from("pix_provider:ppc_1:client_secret"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    expect(
      Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8"),
    ).toBe("client-secret-ção");
  });

  test("two seals of one value differ (fresh IV each time)", async () => {
    const key = await importSecretsKey(resolveSecretsKeyBytes(KEY_B64, ":memory:"));
    expect(await seal(key, "same", "p")).not.toBe(await seal(key, "same", "p"));
  });

  test("without COFRE_SECRETS_KEY a key file is generated once with mode 0600 and reused", () => {
    const dir = tempDir();
    const first = resolveSecretsKeyBytes(undefined, dir);
    const path = join(dir, "secrets.key");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(path, "utf8").trim(), "base64")).toEqual(Buffer.from(first));
    expect(Buffer.from(resolveSecretsKeyBytes(undefined, dir))).toEqual(Buffer.from(first));
  });

  test("a key file readable by others is tightened to 0600 when read", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "secrets.key"), `${KEY_B64}\n`);
    chmodSync(join(dir, "secrets.key"), 0o644);
    resolveSecretsKeyBytes(undefined, dir);
    expect(statSync(join(dir, "secrets.key")).mode & 0o777).toBe(0o600);
  });
});

describe("secret box: errors", () => {
  test("refuses a COFRE_SECRETS_KEY that is not base64 of 32 bytes, naming the variable", () => {
    for (const bad of [Buffer.alloc(16).toString("base64"), "not base64!", Buffer.alloc(33).toString("base64")])
      expect(() => resolveSecretsKeyBytes(bad, ":memory:")).toThrow("COFRE_SECRETS_KEY must be base64 of 32 bytes");
  });

  test("refuses a damaged key file, naming it", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "secrets.key"), "short\n", { mode: 0o600 });
    expect(() => resolveSecretsKeyBytes(undefined, dir)).toThrow(
      `${join(dir, "secrets.key")} must hold base64 of 32 bytes`,
    );
  });
});

describe("secret box: security", () => {
  test("a value does not open in another place, under another key, or once a byte changed", async () => {
    const key = await importSecretsKey(resolveSecretsKeyBytes(KEY_B64, ":memory:"));
    const other = await importSecretsKey(resolveSecretsKeyBytes(Buffer.alloc(32, 8).toString("base64"), ":memory:"));
    const sealed = await seal(key, "private key pem", "pix_provider:ppc_1:private_key");
    await expect(open(key, sealed, "pix_provider:ppc_2:private_key")).rejects.toBeInstanceOf(SecretBoxError);
    await expect(open(other, sealed, "pix_provider:ppc_1:private_key")).rejects.toBeInstanceOf(SecretBoxError);
    const body = sealed.split(".")[2]!;
    const flipped = sealed.slice(0, sealed.length - body.length) + (body[0] === "A" ? "B" : "A") + body.slice(1);
    await expect(open(key, flipped, "pix_provider:ppc_1:private_key")).rejects.toBeInstanceOf(SecretBoxError);
    await expect(open(key, "plain text", "pix_provider:ppc_1:private_key")).rejects.toBeInstanceOf(SecretBoxError);
  });
});
