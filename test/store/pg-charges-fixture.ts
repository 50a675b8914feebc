/**
 * Rows of the PostgreSQL charges/payments twin tests (test/store/pg-charges.test.ts): every column
 * set, ties on most sort keys, NULLs, method details of every JSON type, two modes, several days.
 */
import type { PaymentSortField } from "../../src/store/port/payments";
import type { TransactionRow } from "../../src/store/rows";
import { transactionRow } from "../payments/support";

export const DAY = 86_400_000;
/** 2026-03-10T12:00:00Z. */
export const T0 = 1_773_144_000_000;

/** A transaction row with every column, `over` applied. */
export function tx(accountId: string, id: string, over: Partial<TransactionRow> = {}): TransactionRow {
  return transactionRow({
    id,
    accountId,
    livemode: false,
    amount: 1_000,
    currency: "BRL",
    status: "WAITING_PAYMENT",
    paymentMethods: '["PIX"]',
    origin: "charges",
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });
}

/**
 * Rows with ties on most sort keys (inserted in id order, as `rawId` makes them), NULLs, method
 * details of every JSON type, two modes, several days, paid and unpaid rows.
 */
export function fixture(a: string): TransactionRow[] {
  const id = (n: number) => `0196${a.replace(/\D/g, "").padStart(6, "0")}${String(n).padStart(22, "0")}`;
  const details = [
    '{"MULTIBANCO":{"entity":"12345","reference":"999 000 111","expiresAt":"2026-03-20"},"CRYPTO":{"amount":"0.0012","address":"bc1q","network":"btc","currency":"BTC"}}',
    '{"MULTIBANCO":{"entity":"02345","reference":7,"expiresAt":null},"CRYPTO":{"amount":"12abc","address":"0x1"}}',
    '{"BOLETO":{"barcode":"3419","line":"34191.0","expiresAt":"2026-03-15"},"CRYPTO":{"amount":3.5}}',
    '{"MULTIBANCO":{"entity":true,"reference":{"a":1}},"CRYPTO":{"amount":"abc"}}',
    "{}",
    '{"MULTIBANCO":{"entity":"Abc","reference":"abc"},"BOLETO":{"barcode":"0"},"CRYPTO":{"amount":null}}',
  ];
  const statuses = ["WAITING_PAYMENT", "PAID", "PAID", "EXPIRED", "CANCELLED", "PENDING", "REFUNDED", "PAID"];
  const names = [null, "ana", "Ana", "bruno", "ana", null, "Érica", "zé"];
  const rows: TransactionRow[] = [];
  for (let n = 0; n < 24; n++) {
    const status = statuses[n % statuses.length]!;
    const paid = ["PAID", "REFUNDED"].includes(status);
    const createdAt = T0 - (n % 5) * DAY + (n % 3) * 1_000;
    const methods = ['["PIX","CREDIT_CARD"]', '["BOLETO","PIX"]', '["CRYPTO"]', '["PIX"]', '["MULTIBANCO","PIX"]'][
      n % 5
    ]!;
    rows.push(
      tx(a, id(n), {
        livemode: n % 7 === 6,
        amount: 500 + (n % 4) * 250,
        currency: n % 5 === 4 ? "EUR" : "BRL",
        status,
        paymentMethods: methods,
        paidWith: paid ? (n % 2 ? "PIX" : "CREDIT_CARD") : null,
        customerName: names[n % names.length]!,
        customerDocument: n % 3 === 0 ? "12345678909" : n % 3 === 1 ? "123.456.789-09" : null,
        customerEmail: n % 2 ? `c${n % 3}@x.test` : null,
        expectedPayerTaxId: n % 6 === 2 ? "12345678909" : null,
        metadata: n % 2 ? `{"k":${n % 3}}` : "{}",
        pixBrCode: methods.includes("PIX") ? `000201${n % 4}` : null,
        pixTxid: methods.includes("PIX") ? `txid${a}${n}` : null,
        endToEndId: paid ? `E${a}${n}` : null,
        expiresAt: status === "WAITING_PAYMENT" || status === "PENDING" ? T0 + (n % 3) * 60_000 : null,
        providerConnectionId: n === 13 ? "ppc_1" : null,
        methodDetails: details[n % details.length]!,
        platformFee: paid ? 10 + (n % 2) : null,
        refundedAmount: status === "REFUNDED" ? 500 : 0,
        paidAt: paid ? createdAt + n * 7_919 : null,
        createdAt,
        updatedAt: createdAt,
      }),
    );
  }
  return rows;
}

export const SORT_FIELDS: PaymentSortField[] = [
  "id",
  "status",
  "amount",
  "currency",
  "paymentMethods",
  "customerName",
  "customerDocument",
  "customerEmail",
  "metadata",
  "createdAt",
  "paidWith",
  "pixQrCode",
  "pixCopyPaste",
  "pixExpiresAt",
  "cardRedirectUrl",
  "mbEntity",
  "mbReference",
  "mbExpiresAt",
  "boletoBarcode",
  "boletoLine",
  "boletoPdfUrl",
  "boletoExpiresAt",
  "cryptoAddress",
  "cryptoAmount",
  "cryptoNetwork",
  "cryptoCurrency",
  "platformFee",
  "paidAt",
];
