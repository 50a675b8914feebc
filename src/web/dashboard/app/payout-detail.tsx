/** @jsxImportSource preact */
/** A payout's detail: amount, status, destination, fee, end-to-end id, status history and cancel while `pending`. */
import { useEffect, useState } from "preact/hooks";
import { api } from "./api";
import { t } from "./i18n";
import { dateTime, money } from "./format";
import type { Session } from "./main";
import { Alert, Notice } from "./messages";
import type { Payout } from "./wire";
import { destinationText, failureText, StatusBadge } from "./payout-text";

/** The payout detail page (#/payouts/{id}); cancel is offered to OWNER and ADMIN. */
export function PayoutDetail({ id, session }: { id: string; session: Session }) {
  const [p, setP] = useState<Payout | null>(null);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const manager = session.role === "OWNER" || session.role === "ADMIN";
  const load = () =>
    api<Payout>("GET", `/v1/payouts/${encodeURIComponent(id)}`).then(setP, (e) => setError(failureText(e)));
  useEffect(() => {
    void load();
  }, [id]);
  if (!p)
    return error ? (
      <section>
        <Alert text={error} />
        <a href="#/payouts">{t("back_payouts")}</a>
      </section>
    ) : (
      <p>{t("loading")}</p>
    );
  const cancel = async () => {
    setBusy(true);
    setError("");
    setNotice("");
    try {
      setP(await api("POST", `/v1/payouts/${encodeURIComponent(p.id)}/cancel`, {}));
      setNotice(t("payout_cancelled"));
    } catch (e) {
      setError(failureText(e));
      await load();
    } finally {
      setBusy(false);
    }
  };
  const history: [string, string, string][] = [[t("created"), p.created_at, "created"]];
  if (p.paid_at) history.push([t("paid_at"), p.paid_at, "paid"]);
  if (p.failed_at) history.push([t("failed_at"), p.failed_at, "failed"]);
  if (p.cancelled_at) history.push([t("cancelled_at"), p.cancelled_at, "cancelled"]);
  return (
    <section>
      <a href="#/payouts">{t("back_payouts")}</a>
      <h1>
        {money(p.amount, p.currency)} <StatusBadge status={p.status} test="payout-status" />
      </h1>
      <dl class="facts">
        <dt>{t("id")}</dt>
        <dd>
          <code>{p.id}</code>
        </dd>
        <dt>{t("destination")}</dt>
        <dd class="name" data-testid="payout-destination">
          {destinationText(p.destination)}
        </dd>
        <dt>{t("fee")}</dt>
        <dd data-testid="payout-fee">{money(p.fee, p.currency)}</dd>
        <dt>{t("description")}</dt>
        <dd class="name">{p.description ?? "—"}</dd>
        <dt>end-to-end id</dt>
        <dd>{p.end_to_end_id ? <code>{p.end_to_end_id}</code> : "—"}</dd>
      </dl>
      <Notice text={notice} />
      <Alert text={error} />
      {manager && p.status === "pending" && (
        <div class="actions">
          <button type="button" disabled={busy} onClick={cancel}>
            {t("cancel_payout")}
          </button>
        </div>
      )}
      <h2>{t("status_history")}</h2>
      <ol class="timeline" data-testid="payout-history">
        {history.map(([label, at, step]) => (
          <li key={step} data-step={step}>
            <time dateTime={at}>{dateTime(at)}</time> {label}
            {step === "failed" && (p.failure_message || p.failure_code) && (
              <>
                {" "}
                · {t("failure_reason")}:{" "}
                <span class="name">{[p.failure_code, p.failure_message].filter(Boolean).join(": ")}</span>
              </>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
