/** @jsxImportSource preact */
/**
 * Saques (issue 24 §4; extensions.md "Payouts (money out)"): the wallet's balance
 * (GET /v1/wallets/balance, the mode's `available` and `pending`), the payout destinations
 * (GET /v1/payout_destinations; add a Pix key or a bank account and remove one, OWNER and ADMIN
 * only, as the server requires), a new payout (amount typed in reais, converted to centavos
 * exactly by format.ts `parseAmount`; a confirmation step showing amount, fee
 * (`settings.payout_fee_fixed` of GET /v1/account), total and destination; one Idempotency-Key per
 * confirmation, reused when that confirmation is retried, so a double click pays once), the
 * cursor list of payouts with a status filter (GET /v1/payouts) and the detail with its status
 * history and a cancel button while `pending` (POST /v1/payouts/{id}/cancel). Status names come
 * from the payout model (src/domain/payouts/model.ts, whose only imports are type-only, so the
 * bundle takes its constants and nothing of the server); their pt-BR words from i18n.ts.
 * The parts live beside this page: payout-text.tsx (shared words), payout-destinations.tsx,
 * payout-form.tsx and payout-detail.tsx.
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "./api";
import { t } from "./i18n";
import { dateTime, money } from "./format";
import type { Session } from "./main";
import { Alert, Notice } from "./messages";
import { PAYOUT_STATUSES } from "../../../domain/payouts/model";
import type { Account, Balance as BalanceView, PayoutDestination, PayoutList as PayoutPage } from "./wire";
import { destinationText, failureText, payoutStatusText, StatusBadge } from "./payout-text";
import { Destinations } from "./payout-destinations";
import { NewPayout } from "./payout-form";

function useBalance(version: number) {
  const [balance, setBalance] = useState<BalanceView | null>(null);
  useEffect(() => {
    api<BalanceView>("GET", "/v1/wallets/balance").then(setBalance, () => setBalance(null));
  }, [version]);
  return balance;
}

function Balance({ balance }: { balance: BalanceView | null }) {
  const cur = balance?.currency ?? "BRL";
  return (
    <div class="cards" aria-label={t("payout_balance")} role="group">
      <div class="card" data-testid="payout-available">
        <div class="label">{t("available")}</div>
        <div class="value">{balance ? money(balance.available, cur) : "…"}</div>
      </div>
      <div class="card" data-testid="payout-pending">
        <div class="label">{t("pending")}</div>
        <div class="value">{balance ? money(balance.pending, cur) : "…"}</div>
      </div>
    </div>
  );
}

export function Payouts({ session }: { session: Session }) {
  const manager = session.role === "OWNER" || session.role === "ADMIN";
  const [version, setVersion] = useState(0);
  const balance = useBalance(version);
  const [destinations, setDestinations] = useState<PayoutDestination[] | null>(null);
  const [fee, setFee] = useState<number | null>(null);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const loadDestinations = () =>
    api<{ data: PayoutDestination[] }>("GET", "/v1/payout_destinations").then(
      (r) => setDestinations(r.data),
      (e) => setError(failureText(e)),
    );
  useEffect(() => {
    void loadDestinations();
    api<Account>("GET", "/v1/account").then(
      (a) => setFee(typeof a?.settings?.payout_fee_fixed === "number" ? a.settings.payout_fee_fixed : null),
      () => setFee(null),
    );
  }, []);
  const say = (err: string, done: string) => {
    setError(err);
    setNotice(done);
  };
  return (
    <section>
      <h1>{t("payouts")}</h1>
      <Balance balance={balance} />
      <Alert text={error} />
      <Notice text={notice} />
      <Destinations list={destinations} manager={manager} reload={loadDestinations} say={say} />
      {manager ? (
        <NewPayout destinations={destinations ?? []} fee={fee} say={say} created={() => setVersion(version + 1)} />
      ) : (
        <p class="note">{t("managers_only")}</p>
      )}
      <PayoutList version={version} />
    </section>
  );
}

function PayoutList({ version }: { version: number }) {
  const [status, setStatus] = useState("");
  const [cursors, setCursors] = useState<string[]>([""]);
  const [list, setList] = useState<PayoutPage | null>(null);
  const [error, setError] = useState("");
  const cursor = cursors[cursors.length - 1]!;
  useEffect(() => {
    const q = new URLSearchParams({ limit: "25" });
    if (status) q.set("status", status);
    if (cursor) q.set("starting_after", cursor);
    setError("");
    api<PayoutPage>("GET", `/v1/payouts?${q}`).then(setList, (e) => setError(failureText(e)));
  }, [status, cursor, version]);
  return (
    <div>
      <h2>{t("payout_list")}</h2>
      <form class="filters" role="search" aria-label={t("payout_list")} onSubmit={(e) => e.preventDefault()}>
        <label>
          {t("status")}
          <select
            name="status"
            value={status}
            onChange={(e) => {
              setCursors([""]);
              setStatus((e.currentTarget as HTMLSelectElement).value);
            }}
          >
            <option value="">{t("all")}</option>
            {PAYOUT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {payoutStatusText(s)}
              </option>
            ))}
          </select>
        </label>
      </form>
      <Alert text={error} />
      {!list ? (
        <p>{t("loading")}</p>
      ) : list.data.length === 0 ? (
        <p>{t("no_payouts")}</p>
      ) : (
        <table class="payouts">
          <thead>
            <tr>
              <th scope="col">{t("created")}</th>
              <th scope="col">{t("destination")}</th>
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
                  <a href={`#/payouts/${p.id}`}>{dateTime(p.created_at)}</a>
                </td>
                <td class="name">{destinationText(p.destination)}</td>
                <td>
                  <StatusBadge status={p.status} />
                </td>
                <td class="num">{money(p.amount, p.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t("payout_list")}>
        <button type="button" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          {t("previous")}
        </button>
        <button
          type="button"
          disabled={!list?.has_more}
          onClick={() => setCursors([...cursors, list?.next_cursor ?? ""])}
        >
          {t("next")}
        </button>
      </nav>
    </div>
  );
}
