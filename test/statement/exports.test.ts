/**
 * Statement exports (extensions.md "Statement, exports and reconciliation"): `Accept: text/csv`
 * and `Accept: application/x-ofx` answer the whole period, streamed. Read back with independent
 * parsers from npm (csv-parse; ofx-js), never with Cofre's own code.
 */
import { describe, expect, test } from "bun:test";
import { parse as parseCsv } from "csv-parse/sync";
import { parseSync as parseOfx } from "ofx-js";
import { creditChargePayment } from "../../src/domain/ledger";
import { rawId } from "../../src/lib/ids";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { allLines, charge, endPayout, failRefund, hold, payoutPosted, refund, total, type Wallet } from "./support";

async function account(): Promise<{ h: Harness; a: SeededAccount; w: Wallet }> {
  const h = createHarness();
  const a = await h.seedAccount({ settings: { settlementDelaySeconds: 0 } });
  return { h, a, w: { h, a } };
}

/** A few movements of every sign over two São Paulo days. */
async function movements(w: Wallet): Promise<void> {
  const tx = await charge(w, 12_345, 199);
  w.h.clock.advance(600);
  const re = await refund(w, tx, 1_000, 5);
  w.h.clock.advance(600);
  await failRefund(w, re);
  w.h.clock.advance(86_400);
  const po = await payoutPosted(w, 2_000, 50);
  w.h.clock.advance(60);
  await endPayout(w, po, "reversed");
  await hold(w, 300);
}

function exportOf(h: Harness, key: string, accept: string, query = "") {
  return h.call("GET", `/v1/wallets/statement${query ? `?${query}` : ""}`, { key, headers: { accept } });
}

describe("CSV export", () => {
  test("the period as RFC 4180 CSV with a header row holds exactly the statement's lines", async () => {
    const { h, a, w } = await account();
    await movements(w);
    const r = await exportOf(h, a.testKey, "text/csv");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="extrato-inicio-2026-11-21.csv"');
    expect(r.text.split("\r\n")[0]).toBe(
      "id,created_at,type,amount,balance_after,available_on,description,reference_id",
    );
    expect(r.text.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(r.text, { columns: true, skip_empty_lines: false });
    const lines = await allLines(h, a.testKey);
    expect(lines).toHaveLength(9);
    expect(rows).toEqual(
      lines.map((l) => ({
        ...l,
        amount: String(l.amount),
        balance_after: String(l.balance_after),
        reference_id: l.reference_id ?? "",
      })),
    );
    expect(rows.some((row: any) => row.description === "Estorno de devolução")).toBe(true);
  });

  test("a period's CSV holds that period's lines only", async () => {
    const { h, a, w } = await account();
    await movements(w);
    const r = await exportOf(h, a.testKey, "text/csv", "from=2026-11-21&to=2026-11-21");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="extrato-2026-11-21-2026-11-21.csv"');
    const rows = parseCsv(r.text, { columns: true });
    expect(rows.map((row: any) => row.type)).toEqual(["med_hold", "payout_reversal", "payout_fee", "payout"]);
    expect(rows.map((row: any) => row.id)).toEqual(
      (await allLines(h, a.testKey, "from=2026-11-21&to=2026-11-21")).map((l) => l.id),
    );
  });

  test("an export larger than one store page streams every line once with a continuous running total", async () => {
    const { h, a } = await account();
    // 600 charges with a fee: 1,200 lines, more than one page of entries (500).
    await h.deps.store.tx(async (uow) => {
      for (let i = 0; i < 600; i++)
        await creditChargePayment(h.deps, uow, {
          accountId: a.accountId,
          livemode: false,
          currency: "BRL",
          amount: 1_000 + i,
          fee: 10,
          transactionId: rawId(),
        });
    });
    const rows: any[] = parseCsv((await exportOf(h, a.testKey, "text/csv")).text, { columns: true });
    expect(rows).toHaveLength(1_200);
    expect(new Set(rows.map((row: any) => row.id)).size).toBe(1_200);
    expect(Number(rows[0].balance_after)).toBe(await total(h, a.testKey));
    for (let i = 1; i < rows.length; i++)
      expect(Number(rows[i].balance_after)).toBe(Number(rows[i - 1].balance_after) - Number(rows[i - 1].amount));
    expect(Number(rows[rows.length - 1].balance_after)).toBe(Number(rows[rows.length - 1].amount));
  }, 30_000);
});

describe("OFX export", () => {
  test("OFX 1.0.2 SGML parses into the statement's lines with amounts in reais and the ledger balance", async () => {
    const { h, a, w } = await account();
    await movements(w);
    const r = await exportOf(h, a.testKey, "application/x-ofx");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/x-ofx");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="extrato-inicio-2026-11-21.ofx"');
    // SGML as banks emit it: leaf elements left open.
    expect(r.text.startsWith("OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\n")).toBe(true);
    expect(r.text).not.toContain("</TRNAMT>");
    const ofx = parseOfx(r.text);
    expect(ofx.header).toMatchObject({
      OFXHEADER: "100",
      DATA: "OFXSGML",
      VERSION: "102",
      ENCODING: "USASCII",
      CHARSET: "1252",
    });
    const stmt = ofx.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(stmt.CURDEF).toBe("BRL");
    expect(stmt.LEDGERBAL.BALAMT).toBe(((await total(h, a.testKey)) / 100).toFixed(2));
    const lines = await allLines(h, a.testKey);
    const trns = stmt.BANKTRANLIST.STMTTRN as any[];
    expect(trns.map((t) => [t.TRNTYPE, t.TRNAMT, t.FITID])).toEqual(
      lines.map((l) => [l.amount < 0 ? "DEBIT" : "CREDIT", (l.amount / 100).toFixed(2), l.id]),
    );
    expect(trns.map((t) => t.MEMO)).toEqual(
      lines.map((l) => `${l.description.normalize("NFD").replace(/[\u0300-\u036f]/g, "")} ${l.reference_id}`),
    );
    // 12:00 UTC is 09:00 in São Paulo.
    expect(trns[trns.length - 1].DTPOSTED).toBe("20261120090000[-3:BRT]");
    expect(
      trns
        .map((t) => Number(t.TRNAMT))
        .reduce((s, v) => s + v, 0)
        .toFixed(2),
    ).toBe(stmt.LEDGERBAL.BALAMT);
  });

  test("FITIDs are the same in two exports, and an old line keeps its FITID after new movements", async () => {
    const { h, a, w } = await account();
    await movements(w);
    const fitids = async (query = "") =>
      (
        parseOfx((await exportOf(h, a.testKey, "application/x-ofx", query)).text).OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS
          .BANKTRANLIST.STMTTRN as any[]
      ).map((t) => t.FITID);
    const first = await fitids();
    expect(await fitids()).toEqual(first);
    h.clock.advance(60);
    await charge(w, 700);
    const again = await fitids();
    expect(again.slice(1)).toEqual(first);
    expect(await fitids("to=2026-11-20")).toEqual(first.slice(-5));
  });

  test("LEDGERBAL of a past period is the total at its end", async () => {
    const { h, a, w } = await account();
    await movements(w);
    const stmt = parseOfx((await exportOf(h, a.testKey, "application/x-ofx", "to=2026-11-20")).text).OFX.BANKMSGSRSV1
      .STMTTRNRS.STMTRS;
    expect(stmt.LEDGERBAL.BALAMT).toBe("121.46");
    expect(stmt.LEDGERBAL.DTASOF).toBe("20261120235959[-3:BRT]");
  });
});

describe("export errors", () => {
  test("exports refuse limit and starting_after, and bad dates are 400 in JSON", async () => {
    const { h, a, w } = await account();
    await charge(w, 100);
    for (const accept of ["text/csv", "application/x-ofx"]) {
      for (const [q, param] of [
        ["limit=10", "limit"],
        ["starting_after=sl_x", "starting_after"],
        ["to=2026-02-30", "to"],
      ]) {
        const r = await exportOf(h, a.testKey, accept, q);
        expect([accept, q, r.status, r.headers.get("content-type"), r.body.error.param]).toEqual([
          accept,
          q,
          400,
          "application/json",
          param,
        ]);
      }
    }
  });

  test("an export without a key is 401", async () => {
    const { h } = await account();
    const r = await h.call("GET", "/v1/wallets/statement", { headers: { accept: "text/csv" } });
    expect(r.status).toBe(401);
  });
});
