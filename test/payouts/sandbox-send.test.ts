/**
 * The sandbox provider's send rows (src/providers/sandbox/index.ts status table): processing with
 * an end-to-end id and `checkAt` = requestedAt + 10 s before then, paid from then on, on the
 * injected clock whether or not the call is resumed.
 */
import { describe, expect, test } from "bun:test";
import { sandboxFaultStore } from "../../src/domain/charges/faults";
import { ManualClock } from "../../src/lib/clock";
import { E2E_RE } from "../../src/pix/ids";
import { createSandboxProvider } from "../../src/providers/sandbox";
import type { ProviderContext, SendRequest } from "../../src/domain/providers/types";

const START = Date.parse("2026-11-20T12:00:00.000Z");
const req: SendRequest = {
  sendId: "01a2",
  amount: 100,
  destination: { type: "pix_key", pixKey: "a@b.co", pixKeyType: "email", taxId: null, name: null },
  description: null,
  resumed: false,
  requestedAt: START,
};

describe("sandbox send", () => {
  test("send and sendStatus answer processing until requestedAt + 10 s, then paid with a 32-character end-to-end id", async () => {
    const clock = new ManualClock("2026-11-20T12:00:00.000Z");
    const ctx = { clock } as unknown as ProviderContext;
    const p = createSandboxProvider({ faults: sandboxFaultStore(() => undefined as never) });
    const first = await p.send!(ctx, req);
    expect(first).toMatchObject({ status: "processing", checkAt: START + 10_000 });
    expect((first as { endToEndId: string }).endToEndId).toMatch(E2E_RE);
    clock.advance(9);
    expect((await p.sendStatus!(ctx, req)).status).toBe("processing");
    clock.advance(1);
    const paid = await p.sendStatus!(ctx, { ...req, resumed: true });
    expect(paid).toMatchObject({ status: "paid", paidAt: START + 10_000 });
    expect((paid as { endToEndId: string }).endToEndId).toHaveLength(32);
    expect((await p.send!(ctx, { ...req, resumed: true })).status).toBe("paid");
  });
});
