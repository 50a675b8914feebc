/** @jsxImportSource preact */
/**
 * Payments list: GET /v1/payments with the API's filters (status, paymentMethod, startDate,
 * endDate, search by id, ch_ id, Pix txid, end-to-end id or customer document), 50 rows a page.
 * Page numbers, not cursors: the contract pins page/limit for this route (interface.md).
 * `performance` marks `payments:data` (answer parsed) and measures `payments:render` (DOM
 * committed) and `payments:frame` (next frame) for `bun run check:dashboard-budget`.
 */
import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import { api } from "./api";
import { t } from "./i18n";
import { dateTime, money } from "./format";
import { Alert } from "./messages";
import { Code, label, methodLabels } from "./labels";
import type { PaymentList } from "./wire";
// The server's own status list (the transaction state machine; a module with no imports).
import { TRANSACTION_STATUSES as STATUSES } from "../../../domain/charges/model";

const METHODS = ["PIX", "CREDIT_CARD", "BOLETO", "MBWAY", "MULTIBANCO", "CRYPTO"];
const LIMIT = 50;

export function Payments() {
  const [filters, setFilters] = useState({ status: "", paymentMethod: "", startDate: "", endDate: "", search: "" });
  const [page, setPage] = useState(1);
  const [list, setList] = useState<PaymentList | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    const q = new URLSearchParams({ limit: String(LIMIT), page: String(page) });
    for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
    setError("");
    api<PaymentList>("GET", `/v1/payments?${q}`).then(
      (r) => {
        performance.mark("payments:data");
        setList(r);
      },
      (e) => setError(e.message),
    );
  }, [filters, page]);
  useLayoutEffect(() => {
    if (!list || performance.getEntriesByName("payments:data", "mark").length === 0) return;
    performance.measure("payments:render", "payments:data");
    requestAnimationFrame(() => {
      performance.measure("payments:frame", "payments:data");
      performance.clearMarks("payments:data");
    });
  }, [list]);
  const onFilter = (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    setPage(1);
    const text = (k: string) => String(f.get(k) ?? "").trim();
    setFilters({
      status: text("status"),
      paymentMethod: text("paymentMethod"),
      startDate: text("startDate"),
      endDate: text("endDate"),
      search: text("search"),
    });
  };
  const pages = list ? Math.max(1, Math.ceil(list.total / LIMIT)) : 1;
  return (
    <section>
      <h1>{t("payments")}</h1>
      <form class="filters" onSubmit={onFilter} role="search">
        <label>
          {t("search_id")}
          <input name="search" maxLength={64} />
        </label>
        <label>
          {t("status")}
          <select name="status">
            <option value="">{t("all")}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s} title={s}>
                {label("transaction", s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("method")}
          <select name="paymentMethod">
            <option value="">{t("all")}</option>
            {METHODS.map((m) => (
              <option key={m} value={m} title={m}>
                {label("method", m)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("from")}
          <input type="date" name="startDate" />
        </label>
        <label>
          {t("to")}
          <input type="date" name="endDate" />
        </label>
        <button type="submit">{t("search")}</button>
      </form>
      <Alert text={error} />
      {!list ? (
        <p>{t("loading")}</p>
      ) : list.data.length === 0 ? (
        <p>{t("no_payments")}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t("created")}</th>
              <th scope="col">{t("customer")}</th>
              <th scope="col">{t("method")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col" class="num">
                {t("amount")}
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((p) => (
              <tr key={p.id} data-id={p.id}>
                <td>
                  <a href={`#/payments/${p.id}`}>{dateTime(p.createdAt)}</a>
                </td>
                <td class="name">{p.customerName ?? "—"}</td>
                <td>
                  <span title={(p.paymentMethods ?? []).join(", ")}>{methodLabels(p.paymentMethods)}</span>
                  {p.card?.last4 ? (
                    <span class="card-last4">
                      {" "}
                      · {p.card.brand ?? ""} •••• {p.card.last4}
                    </span>
                  ) : null}
                </td>
                <td>
                  <Code kind="transaction" code={p.status} />
                </td>
                <td class="num">{money(p.amount, p.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t("page")}>
        <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          {t("previous")}
        </button>
        <span>
          {t("page")} {page} / {pages}
        </span>
        <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          {t("next")}
        </button>
      </nav>
    </section>
  );
}
