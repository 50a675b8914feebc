/** GET /v1/payments?paymentMethod= (the dashboard's method filter, issue 15 phase 2). */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { createPayment, forceStatus, pay } from "./support";

describe("GET /v1/payments?paymentMethod=", () => {
  test("keeps transactions paid with the method, or unpaid and offering it, and counts exactly those", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const pixOnly = await createPayment(h, a, { paymentMethods: ["PIX"] });
    const both = await createPayment(h, a, { paymentMethods: ["PIX", "CREDIT_CARD"] });
    const paidByCard = await createPayment(h, a, { paymentMethods: ["PIX", "CREDIT_CARD"] });
    await pay(h, a, paidByCard.id, { method: "CREDIT_CARD" });
    const boleto = await createPayment(h, a, { paymentMethods: ["BOLETO"] });
    const ids = async (q: string) => {
      const r = await h.call("GET", `/v1/payments${q}`, { key: a.testKey });
      expect(r.status).toBe(200);
      expect(r.body.total).toBe(r.body.data.length);
      return r.body.data.map((d: any) => d.id).sort();
    };
    expect(await ids("?paymentMethod=PIX")).toEqual([pixOnly.id, both.id].sort());
    expect(await ids("?paymentMethod=CREDIT_CARD")).toEqual([both.id, paidByCard.id].sort());
    expect(await ids("?paymentMethod=BOLETO")).toEqual([boleto.id]);
    expect(await ids("?paymentMethod=CRYPTO")).toEqual([]);
    expect(await ids("?paymentMethod=PIX&status=WAITING_PAYMENT")).toEqual([pixOnly.id, both.id].sort());
  });

  test("an unknown method is 400 naming the parameter, and another account's transactions never match", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    await createPayment(h, b, { paymentMethods: ["PIX"] }, b.testKey);
    for (const bad of ["pix", "PIX,BOLETO", "", "CASH"]) {
      const r = await h.call("GET", `/v1/payments?paymentMethod=${encodeURIComponent(bad)}`, { key: a.testKey });
      expect([bad, r.status, r.body.error.param]).toEqual([bad, 400, "paymentMethod"]);
    }
    expect((await h.call("GET", "/v1/payments?paymentMethod=PIX", { key: a.testKey })).body).toEqual({
      data: [],
      total: 0,
      page: 1,
      limit: 20,
    });
  });
});

describe("GET /v1/payments?paymentMethod=: the total", () => {
  test("equals an oracle over the whole list for every method, pages smaller than the total, paid, refunded, expired and mixed rows", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const offers = [
      ["PIX"],
      ["PIX", "CREDIT_CARD"],
      ["CREDIT_CARD"],
      ["BOLETO"],
      ["PIX", "BOLETO"],
      ["PIX", "CREDIT_CARD", "BOLETO"],
    ];
    for (let i = 0; i < 24; i++) {
      const methods = offers[i % offers.length]!;
      const p = await createPayment(h, a, { paymentMethods: methods });
      if (i % 3 === 0) await pay(h, a, p.id, { method: methods[methods.length - 1] });
      else if (i % 3 === 1) await forceStatus(h, p.id, "EXPIRED");
      if (i % 6 === 0) await forceStatus(h, p.id, "REFUNDED");
    }
    await createPayment(h, b, { paymentMethods: ["PIX", "BOLETO"] }, b.testKey);
    const all = (await h.call("GET", "/v1/payments?limit=100", { key: a.testKey })).body.data as {
      paidWith: string | null;
      paymentMethods: string[];
    }[];
    expect(all).toHaveLength(24);
    for (const m of ["PIX", "CREDIT_CARD", "BOLETO", "MBWAY", "MULTIBANCO", "CRYPTO"]) {
      const oracle = all.filter(
        (p) => p.paidWith === m || (p.paidWith === null && p.paymentMethods.includes(m)),
      ).length;
      const r = await h.call("GET", `/v1/payments?paymentMethod=${m}&limit=5&page=2`, { key: a.testKey });
      expect([m, r.status, r.body.total, r.body.data.length]).toEqual([
        m,
        200,
        oracle,
        Math.max(0, Math.min(5, oracle - 5)),
      ]);
    }
  });
});
