/**
 * Certificate expiry of Pix provider connections (issue 14 §2): a client certificate that
 * expires within 30 days is logged at warn when connected and then once a day (the daily job),
 * never for a certificate with more time left, and never for a deleted connection.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CERTIFICATE_CHECK_JOB } from "../../src/domain/pix-provider/jobs";
import { createLogger } from "../../src/lib/logger";
import { issue } from "../../src/psp-sim/certs";
import { createHarness, type Harness } from "../support/harness";
import { startFixture, type SimFixture } from "../psp-sim/support";
import { connectionPath, OPERATOR_TOKEN } from "./support";

const START = "2026-11-20T12:00:00.000Z";
let fx: SimFixture;
let h: Harness;
let lines: string[] = [];
beforeAll(async () => {
  fx = await startFixture();
  h = createHarness(
    { operatorToken: OPERATOR_TOKEN },
    START,
    createLogger("info", { write: (s: string) => void lines.push(s) }),
  );
});
afterAll(() => fx.cleanup());

/** Warn lines about certificates, as parsed JSON. */
const expiryWarnings = () =>
  lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && String(l.msg).includes("client certificate"));

/** The simulator's operator body with a client certificate from its CA valid for `days` from START. */
async function bodyWithCertificate(days: number) {
  const ca = {
    cert: readFileSync(join(fx.init.dir, "ca.crt"), "utf8"),
    key: readFileSync(join(fx.init.dir, "ca.key"), "utf8"),
  };
  // notBefore is an hour before START: the certificate is valid now for the TLS handshake as well.
  const leaf = await issue(ca, "short-lived merchant client", "client", [], new Date(START), days);
  return {
    ...fx.init.body,
    api_url: fx.sim.apiUrl,
    token_url: fx.sim.tokenUrl,
    certificate: leaf.cert,
    private_key: leaf.key,
  };
}

async function advanceDays(days: number) {
  h.clock.advance(days * 86_400);
  await h.deps.jobs.drain();
}

describe("certificate expiry warnings", () => {
  test("a certificate that expires in 20 days is logged at connect and then once a day, with no secret in the line", async () => {
    const a = await h.seedAccount();
    const b = await bodyWithCertificate(20);
    lines = [];
    const r = await h.call("PUT", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN, body: b });
    expect(r.status).toBe(200);
    expect(r.body.certificate_expires_at).toBe("2026-12-10T12:00:00.000Z");
    expect(expiryWarnings()).toEqual([
      expect.objectContaining({
        connection_id: r.body.id,
        account_id: a.accountId,
        certificate_expires_at: "2026-12-10T12:00:00.000Z",
        certificate_fingerprint_sha256: r.body.certificate_fingerprint_sha256,
        days_left: 20,
        msg: "pix provider: the client certificate expires in 20 days",
      }),
    ]);

    lines = [];
    h.clock.advance(12 * 3600);
    await h.deps.jobs.drain();
    expect(expiryWarnings()).toEqual([]); // not yet a day since the last check
    h.clock.advance(12 * 3600);
    await h.deps.jobs.drain();
    expect(expiryWarnings().map((l) => [l.connection_id, l.days_left])).toEqual([[r.body.id, 19]]);
    await advanceDays(1);
    expect(expiryWarnings().map((l) => l.days_left)).toEqual([19, 18]);
    for (const l of lines) expect(l).not.toContain(b.client_secret);

    // A deleted connection is no longer checked.
    expect((await h.call("DELETE", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN })).status).toBe(204);
    lines = [];
    await advanceDays(1);
    expect(expiryWarnings()).toEqual([]);
    expect(await h.deps.jobs.pending(CERTIFICATE_CHECK_JOB)).toBe(1); // the daily job stays scheduled
  });

  test("a certificate with more than 30 days left is not logged", async () => {
    const a = await h.seedAccount();
    lines = [];
    const r = await h.call("PUT", connectionPath(a.accountId), {
      bearer: OPERATOR_TOKEN,
      body: await bodyWithCertificate(400),
    });
    expect(r.status).toBe(200);
    await advanceDays(1);
    expect(expiryWarnings().filter((l) => l.connection_id === r.body.id)).toEqual([]);
    expect((await h.call("DELETE", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN })).status).toBe(204);
  });
});
