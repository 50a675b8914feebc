/** @jsxImportSource preact */
/**
 * "Conciliação" (issue 27 §4; extensions.md "Statement, exports and reconciliation"): the stored
 * days of the last 30 from GET /v1/reconciliation (newest first), each with its status, both
 * sides' totals and its differences; a form reconciles one day now (GET ?date=) and shows it in
 * the list. Live mode only (the API answers 403 `live_mode_only` to test mode, so test mode shows
 * a notice and asks nothing).
 */
import { useEffect, useState } from "preact/hooks";
import { api, currentMode } from "./api";
import { lang, t, type Key } from "./i18n";
import { money, todaySaoPaulo } from "./format";
import { Alert } from "./messages";

interface Totals {
  count: number;
  amount: number;
}
interface Difference {
  kind: "missing_in_cofre" | "missing_at_psp" | "amount_differs" | "status_differs";
  end_to_end_id: string | null;
  reference_id: string | null;
  psp_amount: number | null;
  cofre_amount: number | null;
  healed: boolean;
}
interface Day {
  date: string;
  status: "matched" | "mismatched";
  psp: { received: Totals; sent: Totals };
  cofre: { received: Totals; sent: Totals };
  differences: Difference[];
}

const KIND: Record<Difference["kind"], Key> = {
  missing_in_cofre: "rc_missing_in_cofre",
  missing_at_psp: "rc_missing_at_psp",
  amount_differs: "rc_amount_differs",
  status_differs: "rc_status_differs",
};

/** `2026-11-20` as the merchant reads a day (20/11/2026 in pt-BR). */
function dayLabel(date: string): string {
  const [y, m, d] = date.split("-");
  return lang() === "pt-BR" ? `${d}/${m}/${y}` : date;
}

const totals = (x: Totals) => `${x.count} ${t("rc_count")} · ${money(x.amount)}`;
const amount = (v: number | null) => (v === null ? "—" : money(v));

function Differences({ day }: { day: Day }) {
  if (day.differences.length === 0) return <p class="empty">{t("rc_no_differences")}</p>;
  return (
    <table class="differences">
      <caption>
        {t("rc_differences")} — {dayLabel(day.date)}
      </caption>
      <thead>
        <tr>
          <th scope="col">{t("rc_kind")}</th>
          <th scope="col">{t("rc_e2e")}</th>
          <th scope="col">{t("st_reference")}</th>
          <th scope="col" class="num">
            {t("rc_psp_amount")}
          </th>
          <th scope="col" class="num">
            {t("rc_cofre_amount")}
          </th>
        </tr>
      </thead>
      <tbody>
        {day.differences.map((d, i) => (
          <tr key={i} data-kind={d.kind}>
            <td>
              {t(KIND[d.kind])}
              {d.healed && <span class="healed"> ({t("rc_healed")})</span>}
            </td>
            <td class="ref">{d.end_to_end_id ?? "—"}</td>
            <td class="ref">{d.reference_id ?? "—"}</td>
            <td class="num">{amount(d.psp_amount)}</td>
            <td class="num">{amount(d.cofre_amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Reconciliation() {
  const live = currentMode() === "live";
  const [days, setDays] = useState<Day[] | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const load = () =>
    api<{ data: Day[] }>("GET", "/v1/reconciliation").then(
      (r) => setDays(r.data),
      (e) => setError(e.message),
    );
  useEffect(() => {
    if (live) void load();
  }, [live]);

  const onRun = async (e: Event) => {
    e.preventDefault();
    const date = String(new FormData(e.currentTarget as HTMLFormElement).get("date") ?? "");
    if (!date) return;
    setError("");
    setBusy(true);
    try {
      await api("GET", `/v1/reconciliation?date=${encodeURIComponent(date)}`);
      await load();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="reconciliation">
      <h1>{t("reconciliation")}</h1>
      <p>{t("rc_intro")}</p>
      {!live ? (
        <p class="notice" role="status">
          {t("rc_live_only")}
        </p>
      ) : (
        <>
          <form class="filters" onSubmit={onRun}>
            <label>
              {t("rc_day")}
              <input type="date" name="date" required max={todaySaoPaulo()} />
            </label>
            <button type="submit" disabled={busy}>
              {t("rc_run")}
            </button>
          </form>
          <Alert text={error} />
          {!days ? (
            <p>{t("loading")}</p>
          ) : days.length === 0 ? (
            <p class="empty">{t("rc_empty")}</p>
          ) : (
            <table class="reconciliation-days">
              <caption>{t("rc_caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("date")}</th>
                  <th scope="col">{t("status")}</th>
                  <th scope="col">{t("rc_psp_received")}</th>
                  <th scope="col">{t("rc_cofre_received")}</th>
                  <th scope="col">{t("rc_psp_sent")}</th>
                  <th scope="col">{t("rc_cofre_sent")}</th>
                  <th scope="col">{t("rc_differences")}</th>
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d.date} data-date={d.date} data-status={d.status}>
                    <th scope="row">{dayLabel(d.date)}</th>
                    <td class={`rc-${d.status}`}>{t(d.status === "matched" ? "rc_matched" : "rc_mismatched")}</td>
                    <td>{totals(d.psp.received)}</td>
                    <td>{totals(d.cofre.received)}</td>
                    <td>{totals(d.psp.sent)}</td>
                    <td>{totals(d.cofre.sent)}</td>
                    <td>
                      {d.differences.length === 0 ? (
                        "0"
                      ) : (
                        <details>
                          <summary>{d.differences.length}</summary>
                          <Differences day={d} />
                        </details>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
