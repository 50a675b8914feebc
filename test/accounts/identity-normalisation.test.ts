/**
 * One identity per e-mail, one password per text (issue 30 §5; extensions.md "Dashboard
 * authentication"): member e-mails are compared and stored in one form (NFKC, no zero-width or
 * bidi characters, lower-case), at the uniqueness check and at login; passwords are hashed and
 * checked in NFC, and hashes made before (ASCII, or non-NFC text) keep verifying.
 */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { addMember, seedWithToken } from "../auth/support";
import { hashOptions, verifyPassword } from "../../src/domain/auth/passwords";
import { normalizeEmail } from "../../src/lib/email";

const PASSWORD = "member password 123";

describe("member e-mails", () => {
  test("a full-width, zero-width or bidi-marked spelling of an existing member's e-mail is 409 email_taken", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const viewer = await addMember(h, a.token, "VIEWER");
    const [local, domain] = viewer.email.split("@") as [string, string];
    const fullWidthV = `\uFF56${local.slice(1)}@${domain}`; // ｖiewer-...
    for (const email of [
      fullWidthV,
      `${viewer.email}\u200B`,
      `\u200E${viewer.email}`,
      `${local}\u2060@${domain}`,
      viewer.email.toUpperCase(),
    ]) {
      const r = await h.call("POST", "/v1/account/members", {
        bearer: a.token,
        body: { email, password: PASSWORD, role: "VIEWER" },
      });
      expect([email, r.status, r.body.error?.code]).toEqual([email, 409, "email_taken"]);
    }
  });

  test("a member added with a full-width e-mail is stored in the plain form and listed so", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const r = await h.call("POST", "/v1/account/members", {
      bearer: a.token,
      body: { email: "\uFF44\uFF45\uFF56@Example.com\u200B", password: PASSWORD, role: "DEVELOPER" },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.any(String), email: "dev@example.com", role: "DEVELOPER" });
  });

  test("login accepts the full-width and zero-width spellings of a member's e-mail", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const viewer = await addMember(h, a.token, "VIEWER");
    for (const email of [`\uFF56${viewer.email.slice(1)}`, `${viewer.email}\u200B`, `\u202A${viewer.email}\u202C`]) {
      const r = await h.call("POST", "/v1/auth/login", { body: { email, password: PASSWORD } });
      expect([email, r.status, r.body.role]).toEqual([email, 200, "VIEWER"]);
    }
  });

  test("the normaliser keeps a plain address as it is and folds the look-alikes to it", () => {
    expect(normalizeEmail("ana@example.com")).toBe("ana@example.com");
    expect(
      [
        "\uFF41na@example.com",
        "ana@example.com\u200B",
        "\u200Fana@EXAMPLE.com ",
        "a\u00ADna@example.com",
        "\uFEFFana@example.com",
      ].map(normalizeEmail),
    ).toEqual(Array(5).fill("ana@example.com"));
  });
});

describe("passwords", () => {
  test("a password set with a decomposed accent logs in when typed precomposed, and the other way round", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const nfd = "cafe\u0301 com leite 123";
    const nfc = "caf\u00E9 com leite 123";
    for (const [set, typed, email] of [
      [nfd, nfc, "nfd@example.com"],
      [nfc, nfd, "nfc@example.com"],
    ] as const) {
      expect(
        (
          await h.call("POST", "/v1/account/members", {
            bearer: a.token,
            body: { email, password: set, role: "VIEWER" },
          })
        ).status,
      ).toBe(201);
      const r = await h.call("POST", "/v1/auth/login", { body: { email, password: typed } });
      expect([email, r.status]).toEqual([email, 200]);
    }
  });

  test("a hash made before NFC hashing still verifies: ASCII as typed, and non-NFC text typed the same way", async () => {
    const ascii = await Bun.password.hash("plain ascii password", hashOptions());
    expect(await verifyPassword("plain ascii password", ascii)).toBe(true);
    expect(await verifyPassword("plain ascii passwor", ascii)).toBe(false);
    const oldNfd = await Bun.password.hash("cafe\u0301 antigo 123", hashOptions());
    expect(await verifyPassword("cafe\u0301 antigo 123", oldNfd)).toBe(true);
  });

  test("a wrong password is still 401 invalid_credentials", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const viewer = await addMember(h, a.token, "VIEWER");
    const r = await h.call("POST", "/v1/auth/login", { body: { email: viewer.email, password: `${PASSWORD}x` } });
    expect([r.status, r.body.error.code]).toEqual([401, "invalid_credentials"]);
  });
});
