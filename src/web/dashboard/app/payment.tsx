/** @jsxImportSource preact */
/**
 * Payment detail: GET /v1/payments/{id}, its refunds, the deliveries of its events
 * (GET /v1/webhooks/deliveries?transactionId=; the last attempt's status and response body, and
 * each attempt on demand from GET /v1/webhooks/deliveries/{id}/attempts), and (Pix) the charge view's QR, copy-paste
 * code, checkout link, txid and end-to-end id. Refund (amount, confirmation, one idempotency key
 * per attempt, reused when that attempt is retried), cancel and receipt download (OWNER and
 * ADMIN), resend the webhook (also DEVELOPER: it moves no money). The server refuses the others anyway.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiFailure, newIdempotencyKey } from "./api";
import { t } from "./i18n";
import { dateTime, money, parseAmount } from "./format";
import type { Session } from "./main";
import { Alert, Notice } from "./messages";
import { Deliveries } from "./payment-deliveries";
// The server's own status groups (the transaction state machine; a module with no imports).
import { CANCELLABLE, IN_FLIGHT, isIn, REFUNDABLE } from "../../../domain/charges/model";
import { Code, label, methodLabels } from "./labels";
import type { Charge, Delivery, Payer, Payment, Receipt, Refund } from "./wire";

/**
 * How often the page re-reads a payment while something is in flight (a payment awaiting its outcome, a refund under
 * way), ms.
 */
export const LIVE_POLL_MS = 2_000;

/** Whether the payment or one of its refunds still awaits an outcome (the page then polls). */
export function inFlight(p: { status: string } | null, refunds: { status: string }[]): boolean {
  return (
    !!p && (isIn(IN_FLIGHT, p.status) || refunds.some((r) => r.status === "PENDING" || r.status === "IN_PROGRESS"))
  );
}

/** Same-origin path of a URL the API handed out (the CSP allows only this origin). */
const localPath = (url: string) => {
  try {
    const u = new URL(url, location.href);
    return u.pathname + u.search;
  } catch {
    return "";
  }
};

/** Re-exported for the refund form's callers: the one parser is format.ts `parseAmount`. */
export { parseAmount };

export function PaymentDetail({ id, session }: { id: string; session: Session }) {
  const [p, setP] = useState<Payment | null>(null);
  const [refunds, setRefunds] = useState<Refund[]>([]);
  const [charge, setCharge] = useState<Charge | null>(null);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [payer, setPayer] = useState<{ name: string | null; document: string | null } | null>(null);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const [amountText, setAmountText] = useState("");
  const [confirming, setConfirming] = useState<{ amount: number; key: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const mayMoveMoney = session.role === "OWNER" || session.role === "ADMIN";

  const load = async () => {
    try {
      const tx = await api<Payment>("GET", `/v1/payments/${encodeURIComponent(id)}`);
      setP(tx);
      setRefunds((await api<{ data: Refund[] }>("GET", `/v1/payments/${tx.id}/refunds`)).data);
      setDeliveries(
        (await api<{ data: Delivery[] }>("GET", `/v1/webhooks/deliveries?transactionId=${tx.id}&limit=100`)).data,
      );
      setPayer(await api<Payer>("GET", `/v1/payments/${tx.id}/payer`).catch(() => null));
      if (tx.paymentMethods?.includes("PIX"))
        setCharge(await api<Charge>("GET", `/v1/charges/ch_${tx.id}`).catch(() => null));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  useEffect(() => {
    void load();
  }, [id]);
  // Live timeline: while the payment or a refund is in flight, read it again every LIVE_POLL_MS
  // (no reload); once nothing is, the page stops asking.
  const live = inFlight(p, refunds);
  useEffect(() => {
    if (!live) return;
    const timer = setTimeout(() => void load(), LIVE_POLL_MS);
    return () => clearTimeout(timer);
  }, [live, p, refunds]);

  if (error && !p)
    return (
      <section>
        <p role="alert" class="error">
          {error}
        </p>
        <a href="#/payments">{t("back")}</a>
      </section>
    );
  if (!p) return <p>{t("loading")}</p>;

  const refunded = refunds.filter((r) => r.status !== "FAILED").reduce((s, r) => s + r.amount, 0);
  const remaining = Math.max(0, p.amount - refunded);
  const askRefund = (e: Event) => {
    e.preventDefault();
    setError("");
    const amount = amountText.trim() === "" ? remaining : parseAmount(amountText);
    if (!amount) return setError(t("refund_amount"));
    // A new attempt gets a new key; retrying the same confirmation keeps it.
    setConfirming({ amount, key: newIdempotencyKey("dash-refund") });
  };
  const doRefund = async () => {
    if (!confirming) return;
    setBusy(true);
    setError("");
    try {
      await api("POST", `/v1/payments/${p.id}/refund`, { idempotencyKey: confirming.key, amount: confirming.amount });
      setConfirming(null);
      setAmountText("");
      setNotice(t("refund_done"));
      await load();
    } catch (e) {
      // Kept open with the same key: "Confirm" again retries this very attempt.
      setError(e instanceof ApiFailure ? `${e.code}: ${e.message}` : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const doCancel = async () => {
    setError("");
    try {
      await api("POST", `/v1/payments/${p.id}/cancel`, {});
      setNotice(t("cancelled_done"));
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const resend = async () => {
    setError("");
    try {
      await api("POST", `/v1/payments/${p.id}/resend-webhook`, {});
      setNotice(t("resent_done"));
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const receipt = async () => {
    setError("");
    try {
      const r = await api<Receipt>("GET", `/v1/payments/${p.id}/receipt`);
      const bytes = Uint8Array.from(atob(r.base64), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: "application/pdf" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `${p.id}.pdf`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const timeline: [string, string][] = [[t("created"), p.createdAt]];
  if (p.paidAt) timeline.push([t("paid_at"), p.paidAt]);
  for (const r of [...refunds].reverse())
    timeline.push([`${t("refund_noun")} ${money(r.amount, r.currency)} (${label("refund", r.status)})`, r.createdAt]);

  return (
    <section>
      <a href="#/payments">{t("back")}</a>
      <h1>
        {money(p.amount, p.currency)} <Code kind="transaction" code={p.status} testid="status" />
      </h1>
      <dl class="facts">
        <dt>{t("id")}</dt>
        <dd>
          <code>{p.id}</code>
        </dd>
        {typeof p.metadata?.description === "string" && p.metadata.description && (
          <>
            <dt>{t("description")}</dt>
            <dd class="name" data-testid="description">
              {p.metadata.description}
            </dd>
          </>
        )}
        <dt>{t("customer")}</dt>
        <dd class="name" data-testid="customer-name">
          {p.customerName ?? "—"}
        </dd>
        {(p.customerDocument || p.customerEmail) && (
          <dd class="name" data-testid="customer-contact">
            {[p.customerDocument, p.customerEmail].filter(Boolean).join(" · ")}
          </dd>
        )}
        {payer && (payer.name || payer.document) && (
          <>
            <dt>{t("payer")}</dt>
            <dd class="name" data-testid="payer">
              {[payer.name, payer.document].filter(Boolean).join(" · ")}
            </dd>
          </>
        )}
        <dt>{t("method")}</dt>
        <dd data-testid="methods" title={p.paidWith ?? (p.paymentMethods ?? []).join(", ")}>
          {p.paidWith ? label("method", p.paidWith) : methodLabels(p.paymentMethods)}
        </dd>
        {p.card && (
          <>
            <dt>{t("card_label")}</dt>
            <dd data-testid="card">
              {[p.card.brand, p.card.last4 ? `•••• ${p.card.last4}` : null].filter(Boolean).join(" ")}
              {p.card.installments ? ` · ${p.card.installments} ${t("installments")}` : ""}
            </dd>
          </>
        )}
        {p.boletoLine && (
          <>
            <dt>{label("method", "BOLETO")}</dt>
            <dd data-testid="boleto-line">
              <code>{p.boletoLine}</code>
            </dd>
          </>
        )}
        {p.mbReference && (
          <>
            <dt>{label("method", "MULTIBANCO")}</dt>
            <dd data-testid="mb-reference">
              {p.mbEntity} · {p.mbReference}
            </dd>
          </>
        )}
        {p.cryptoAddress && (
          <>
            <dt>{label("method", "CRYPTO")}</dt>
            <dd data-testid="crypto-address">
              {p.cryptoAmount} {p.cryptoCurrency} · <code>{p.cryptoAddress}</code>
            </dd>
          </>
        )}
        {(p.status === "DISPUTE" || p.status === "CHARGEBACK") && (
          <>
            <dt>{t("dispute_label")}</dt>
            <dd data-testid="dispute">{p.status === "CHARGEBACK" ? t("dispute_lost") : t("dispute_open")}</dd>
          </>
        )}
        {charge?.pix?.txid && (
          <>
            <dt>txid</dt>
            <dd>
              <code>{charge.pix.txid}</code>
            </dd>
          </>
        )}
        {charge?.settlement?.end_to_end_id && (
          <>
            <dt>end-to-end id</dt>
            <dd>
              <code>{charge.settlement.end_to_end_id}</code>
            </dd>
          </>
        )}
        {charge?.checkout_url && (
          <>
            <dt>{t("checkout_link")}</dt>
            <dd>
              <a href={charge.checkout_url} target="_blank" rel="noopener noreferrer">
                {charge.checkout_url}
              </a>
            </dd>
          </>
        )}
      </dl>
      <Notice text={notice} />
      <Alert text={error} />
      {charge?.pix && isIn(CANCELLABLE, p.status) && (
        <figure class="qr">
          <img src={localPath(charge.pix.qr_code_url)} alt={t("qr")} width={200} height={200} />
          <figcaption>
            {t("pix_copy_paste")}: <code class="brcode">{charge.pix.br_code}</code>
          </figcaption>
        </figure>
      )}
      <div class="actions">
        {mayMoveMoney && isIn(CANCELLABLE, p.status) && (
          <button type="button" onClick={doCancel}>
            {t("cancel_payment")}
          </button>
        )}
        {session.role !== "VIEWER" && (
          <button type="button" onClick={resend}>
            {t("resend")}
          </button>
        )}
        <button type="button" onClick={receipt}>
          {t("receipt")}
        </button>
      </div>
      <h2>{t("timeline")}</h2>
      <ol class="timeline">
        {timeline.map(([label, at]) => (
          <li key={label + at}>
            <time dateTime={at}>{dateTime(at)}</time> {label}
          </li>
        ))}
      </ol>
      <Deliveries deliveries={deliveries} />
      <h2>{t("refunds")}</h2>
      {refunds.length === 0 ? (
        <p>{t("no_refunds")}</p>
      ) : (
        <ul class="refunds">
          {refunds.map((r) => (
            <li key={r.id} data-id={r.id}>
              {money(r.amount, r.currency)} · <Code kind="refund" code={r.status} /> · {dateTime(r.createdAt)}
            </li>
          ))}
        </ul>
      )}
      {mayMoveMoney && isIn(REFUNDABLE, p.status) && remaining > 0 && (
        <form class="refund" onSubmit={askRefund}>
          <label>
            {t("refund_amount")}
            <input
              name="amount"
              inputMode="decimal"
              placeholder={money(remaining, p.currency)}
              value={amountText}
              onInput={(e) => setAmountText((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <button type="submit">{t("refund")}</button>
        </form>
      )}
      {confirming && (
        <div class="confirm" role="dialog" aria-modal="false" aria-label={t("refund_confirm")}>
          <p>
            {t("refund_confirm")} {money(confirming.amount, p.currency)}?
          </p>
          <button type="button" disabled={busy} onClick={doRefund}>
            {t("confirm")}
          </button>
          <button type="button" onClick={() => setConfirming(null)}>
            {t("cancel_action")}
          </button>
        </div>
      )}
    </section>
  );
}
