/** @jsxImportSource preact */
/**
 * "Extrato" (issue 27 §4; extensions.md "Statement, exports and reconciliation"): the wallet's
 * statement from GET /v1/wallets/statement, newest first, with its period filter (São Paulo
 * days), each line's running total (`balance_after`, computed by the server), pages by cursor
 * (older / newer), and the period downloaded as CSV or OFX: the same route with `Accept:
 * text/csv` / `application/x-ofx`, fetched with the session cookie and `Cofre-Mode`, saved under
 * the name the server gives (Content-Disposition).
 */
import { useEffect, useState } from "preact/hooks";
import { api, currentMode } from "./api";
import { t, type Key } from "./i18n";
import { dateTime, money } from "./format";
import { Alert } from "./messages";

const LIMIT = 50;
const TYPE_LABEL: Record<string, Key> = {
  charge: "st_charge",
  fee: "st_fee",
  refund: "st_refund",
  refund_reversal: "st_refund_reversal",
  payout: "st_payout",
  payout_fee: "st_payout_fee",
  payout_reversal: "st_payout_reversal",
  med_hold: "st_med_hold",
  med_release: "st_med_release",
};

interface Line {
  id: string;
  created_at: string;
  type: string;
  amount: number;
  balance_after: number;
  available_on: string;
  description: string;
  reference_id: string | null;
}

/** A line's reference, linked to its page when the dashboard has one (payment, payout, MED case). */
function reference(id: string | null) {
  if (!id) return "—";
  const href = id.startsWith("po_")
    ? `#/payouts/${id}`
    : id.startsWith("med_")
      ? `#/med/${id}`
      : /^[0-9a-f]{32}$/.test(id)
        ? `#/payments/${id}`
        : null;
  return href ? <a href={href}>{id}</a> : id;
}

/** The period as query parameters (only those set). */
function periodQuery(period: { from: string; to: string }): URLSearchParams {
  const q = new URLSearchParams();
  if (period.from) q.set("from", period.from);
  if (period.to) q.set("to", period.to);
  return q;
}

export function Statement() {
  const [period, setPeriod] = useState({ from: "", to: "" });
  /** Cursors of the pages above the one shown (empty: the newest page). */
  const [cursors, setCursors] = useState<string[]>([]);
  const [list, setList] = useState<{ data: Line[]; has_more: boolean; next_cursor: string | null } | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState("");
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    const q = periodQuery(period);
    q.set("limit", String(LIMIT));
    if (cursor) q.set("starting_after", cursor);
    setError("");
    api<{ data: Line[]; has_more: boolean; next_cursor: string | null }>("GET", `/v1/wallets/statement?${q}`).then(
      setList,
      (e) => setError(e.message),
    );
  }, [period, cursor]);

  const onFilter = (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const from = String(f.get("from") ?? "");
    const to = String(f.get("to") ?? "");
    if (from && to && from > to) {
      setError(t("st_bad_period"));
      return;
    }
    setCursors([]);
    setPeriod({ from, to });
  };

  const download = async (format: "csv" | "ofx") => {
    setError("");
    setBusy(format);
    try {
      const res = await fetch(`/v1/wallets/statement?${periodQuery(period)}`, {
        headers: { accept: format === "csv" ? "text/csv" : "application/x-ofx", "cofre-mode": currentMode() },
        credentials: "same-origin",
      });
      if (!res.ok) {
        const json = await res.json().catch(() => null);
        throw new Error(json?.error?.message ?? res.statusText);
      }
      const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `extrato.${format}`;
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy("");
    }
  };

  return (
    <section class="statement">
      <h1>{t("statement")}</h1>
      <form class="filters" onSubmit={onFilter} role="search">
        <label>
          {t("from")}
          <input type="date" name="from" />
        </label>
        <label>
          {t("to")}
          <input type="date" name="to" />
        </label>
        <button type="submit">{t("st_filter")}</button>
      </form>
      <div class="downloads">
        <button type="button" data-testid="download-csv" disabled={busy !== ""} onClick={() => download("csv")}>
          {t("st_download_csv")}
        </button>
        <button type="button" data-testid="download-ofx" disabled={busy !== ""} onClick={() => download("ofx")}>
          {t("st_download_ofx")}
        </button>
      </div>
      <Alert text={error} />
      {!list ? (
        <p>{t("loading")}</p>
      ) : list.data.length === 0 ? (
        <p class="empty">{t("st_empty")}</p>
      ) : (
        <table class="statement-lines">
          <caption>{t("st_caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("date")}</th>
              <th scope="col">{t("st_type")}</th>
              <th scope="col">{t("st_reference")}</th>
              <th scope="col">{t("st_available_on")}</th>
              <th scope="col" class="num">
                {t("amount")}
              </th>
              <th scope="col" class="num">
                {t("st_balance_after")}
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((l) => (
              <tr key={l.id} data-id={l.id} data-type={l.type}>
                <td>{dateTime(l.created_at)}</td>
                <td class="type">{TYPE_LABEL[l.type] ? t(TYPE_LABEL[l.type]!) : l.description}</td>
                <td class="ref">{reference(l.reference_id)}</td>
                <td>{dateTime(l.available_on)}</td>
                <td class={`num amount ${l.amount < 0 ? "debit" : "credit"}`}>{money(l.amount)}</td>
                <td class="num balance">{money(l.balance_after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t("page")}>
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          {t("st_newer")}
        </button>
        <button
          type="button"
          disabled={!list?.has_more}
          onClick={() => list?.next_cursor && setCursors([...cursors, list.next_cursor])}
        >
          {t("st_older")}
        </button>
      </nav>
    </section>
  );
}
