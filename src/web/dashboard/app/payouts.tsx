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
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiFailure, newIdempotencyKey } from "./api";
import { t, type Key } from "./i18n";
import { dateTime, money, parseAmount } from "./format";
import type { Session } from "./main";
import { Alert, Notice } from "./messages";
import { PAYOUT_STATUSES } from "../../../domain/payouts/model";
import type {
  Account,
  Balance as BalanceView,
  BankAccountDestination,
  PayoutDestination,
  Payout,
  PayoutList as PayoutPage,
  PixKeyDestination,
} from "./wire";
import { label } from "./labels";
import { PIX_KEY_TYPES, type PixKeyType } from "../../../pix/key-types";

/**
 * A payout status as the merchant reads it ("pendente", "em processamento", ...; labels.tsx, the one table); an unknown
 * one as sent.
 */
export function payoutStatusText(status: string): string {
  return label("payout", status);
}

const KEY_WORDS: Record<PixKeyType, Key> = {
  cpf: "key_cpf",
  cnpj: "key_cnpj",
  email: "key_email",
  phone: "key_phone",
  evp: "key_evp",
};
const KEY_HINTS: Record<PixKeyType, string> = {
  cpf: "000.000.000-00",
  cnpj: "00.000.000/0000-00",
  email: "financeiro@exemplo.com.br",
  phone: "+5511987654321",
  evp: "123e4567-e89b-12d3-a456-426614174000",
};

/** Codes the page words itself; any other failure reads `code: message` from the API. */
const KNOWN_FAILURES: Record<string, Key> = {
  insufficient_balance: "insufficient_balance",
  payout_limit_exceeded: "payout_limit_exceeded",
};
const failureText = (e: unknown) =>
  e instanceof ApiFailure
    ? KNOWN_FAILURES[e.code]
      ? t(KNOWN_FAILURES[e.code]!)
      : `${e.code}: ${e.message}`
    : (e as Error).message;

/** The fields of a destination (or of a payout's snapshot of it) that its one line shows. */
type DestinationLine =
  | Pick<PixKeyDestination, "type" | "pix_key_type" | "pix_key" | "name">
  | Pick<BankAccountDestination, "type" | "name" | "ispb" | "branch" | "account" | "account_type">;

/** A destination in one line: "Chave Pix CPF: 52998224725 · Maria" or "Maria · ISPB 00000000 · Agência 1 · 12345-6 (Corrente)". */
export function destinationText(d: DestinationLine | null | undefined): string {
  if (!d) return "—";
  if (d.type === "pix_key") {
    const kind = (PIX_KEY_TYPES as readonly string[]).includes(d.pix_key_type)
      ? t(KEY_WORDS[d.pix_key_type as PixKeyType])
      : d.pix_key_type;
    return `${t("pix_key")} ${kind}: ${d.pix_key}${d.name ? ` · ${d.name}` : ""}`;
  }
  const kind =
    d.account_type === "savings" ? t("savings") : d.account_type === "checking" ? t("checking") : d.account_type;
  return `${d.name ?? "—"} · ISPB ${d.ispb} · ${t("branch")} ${d.branch} · ${d.account} (${kind})`;
}

/** A Pix key as the API takes it: CPF/CNPJ digits only, a phone without spaces or punctuation. */
function normalizeKey(type: string, key: string): string {
  const k = key.trim();
  if (type === "cpf" || type === "cnpj") return k.replace(/[.\-/\s]/g, "");
  if (type === "phone") return k.replace(/[\s()\-.]/g, "");
  return k;
}
const digits = (s: string) => s.replace(/[.\-/\s]/g, "");

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

function Destinations({
  list,
  manager,
  reload,
  say,
}: {
  list: PayoutDestination[] | null;
  manager: boolean;
  reload: () => Promise<unknown>;
  say: (err: string, done: string) => void;
}) {
  const [type, setType] = useState<"pix_key" | "bank_account">("pix_key");
  const [keyType, setKeyType] = useState<PixKeyType>("cpf");
  const add = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const text = (k: string) => String(f.get(k) ?? "").trim();
    const body: Record<string, string> =
      type === "pix_key"
        ? { type, pix_key_type: keyType, pix_key: normalizeKey(keyType, text("pix_key")) }
        : {
            type,
            name: text("name"),
            tax_id: digits(text("tax_id")),
            ispb: text("ispb"),
            branch: text("branch"),
            account: digits(text("account")),
            account_type: text("account_type"),
          };
    if (type === "pix_key") {
      if (text("name")) body.name = text("name");
      if (text("tax_id")) body.tax_id = digits(text("tax_id"));
    }
    say("", "");
    api("POST", "/v1/payout_destinations", body).then(
      () => {
        form.reset();
        setType("pix_key");
        setKeyType("cpf");
        say("", t("destination_added"));
        return reload();
      },
      (err) => say(failureText(err), ""),
    );
  };
  const remove = (d: PayoutDestination) => {
    if (!confirm(`${t("remove_destination_confirm")} ${destinationText(d)}?`)) return;
    say("", "");
    api("DELETE", `/v1/payout_destinations/${encodeURIComponent(d.id)}`).then(
      () => {
        say("", t("destination_removed"));
        return reload();
      },
      (err) => say(failureText(err), ""),
    );
  };
  return (
    <div>
      <h2>{t("destinations")}</h2>
      {list && list.length === 0 ? (
        <p>{t("no_destinations")}</p>
      ) : (
        <table class="destinations">
          <thead>
            <tr>
              <th scope="col">{t("destination")}</th>
              <th scope="col">{t("holder_tax_id")}</th>
              <th scope="col">{t("created")}</th>
              {manager && <th scope="col">{t("actions")}</th>}
            </tr>
          </thead>
          <tbody>
            {(list ?? []).map((d) => (
              <tr key={d.id} data-id={d.id}>
                <td class="name">{destinationText(d)}</td>
                <td>{d.tax_id ?? "—"}</td>
                <td>{dateTime(d.created_at)}</td>
                {manager && (
                  <td>
                    <button
                      type="button"
                      aria-label={`${t("delete")}: ${destinationText(d)}`}
                      onClick={() => remove(d)}
                    >
                      {t("delete")}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {manager && (
        <form class="new-destination" onSubmit={add}>
          <fieldset class="choice">
            <legend>{t("destination_type")}</legend>
            {(["pix_key", "bank_account"] as const).map((k) => (
              <label key={k}>
                <input type="radio" name="type" value={k} checked={type === k} onChange={() => setType(k)} />
                {t(k)}
              </label>
            ))}
          </fieldset>
          {type === "pix_key" ? (
            <div class="filters">
              <label>
                {t("pix_key_type")}
                <select
                  name="pix_key_type"
                  value={keyType}
                  onChange={(e) => setKeyType((e.currentTarget as HTMLSelectElement).value as PixKeyType)}
                >
                  {PIX_KEY_TYPES.map((k) => (
                    <option key={k} value={k}>
                      {t(KEY_WORDS[k])}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                {t("pix_key")}
                <input
                  name="pix_key"
                  required
                  maxLength={77}
                  placeholder={KEY_HINTS[keyType]}
                  inputMode={
                    keyType === "cpf" || keyType === "cnpj"
                      ? "numeric"
                      : keyType === "phone"
                        ? "tel"
                        : keyType === "email"
                          ? "email"
                          : "text"
                  }
                  autocomplete="off"
                />
              </label>
              <label>
                {t("holder_name")} ({t("optional")})
                <input name="name" maxLength={200} autocomplete="off" />
              </label>
              <label>
                {t("holder_tax_id")} ({t("optional")})
                <input name="tax_id" inputMode="numeric" maxLength={18} autocomplete="off" />
              </label>
            </div>
          ) : (
            <div class="filters">
              <label>
                {t("holder_name")}
                <input name="name" required maxLength={200} autocomplete="off" />
              </label>
              <label>
                {t("holder_tax_id")}
                <input name="tax_id" required inputMode="numeric" maxLength={18} autocomplete="off" />
              </label>
              <label>
                {t("ispb")}
                <input name="ispb" required inputMode="numeric" pattern="[0-9]{8}" maxLength={8} autocomplete="off" />
              </label>
              <label>
                {t("branch")}
                <input
                  name="branch"
                  required
                  inputMode="numeric"
                  pattern="[0-9]{1,4}"
                  maxLength={4}
                  autocomplete="off"
                />
              </label>
              <label>
                {t("account_number")}
                <input
                  name="account"
                  required
                  inputMode="numeric"
                  pattern="[0-9.\- ]{1,24}"
                  maxLength={24}
                  autocomplete="off"
                />
              </label>
              <label>
                {t("account_type")}
                <select name="account_type">
                  <option value="checking">{t("checking")}</option>
                  <option value="savings">{t("savings")}</option>
                </select>
              </label>
            </div>
          )}
          <button type="submit">{t("add_destination")}</button>
        </form>
      )}
    </div>
  );
}

/** What the merchant confirms: the payout as it will be sent, and the key of this confirmation. */
interface Pending {
  amount: number;
  destination: PayoutDestination;
  description: string;
  key: string;
}

function NewPayout({
  destinations,
  fee,
  say,
  created,
}: {
  destinations: PayoutDestination[];
  fee: number | null;
  say: (err: string, done: string) => void;
  created: () => void;
}) {
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  // Set synchronously: a second click in the same frame (before `busy` renders) sends nothing.
  const sending = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const ask = (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const amount = parseAmount(String(f.get("amount") ?? ""));
    const destination = destinations.find((d) => d.id === f.get("destination_id"));
    if (!amount) return say(t("bad_amount"), "");
    if (!destination) return say(t("need_destination"), "");
    say("", "");
    // A new confirmation gets a new key; "Confirmar" again on this one retries with the same key.
    setConfirming({
      amount,
      destination,
      description: String(f.get("description") ?? "").trim(),
      key: newIdempotencyKey("dash-payout"),
    });
  };
  const send = async () => {
    if (!confirming || sending.current) return;
    sending.current = true;
    setBusy(true);
    say("", "");
    try {
      const body: Record<string, unknown> = { amount: confirming.amount, destination_id: confirming.destination.id };
      if (confirming.description) body.description = confirming.description;
      await api("POST", "/v1/payouts", body, { "idempotency-key": confirming.key });
      setConfirming(null);
      formRef.current?.reset();
      say("", t("payout_created"));
      created();
    } catch (e) {
      // Kept open with the same key: confirming again retries this very payout.
      say(failureText(e), "");
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  return (
    <div>
      <h2>{t("new_payout")}</h2>
      <form class="filters new-payout" ref={formRef} onSubmit={ask}>
        <label>
          {t("payout_amount")}
          <input name="amount" inputMode="decimal" required placeholder="1.234,56" autocomplete="off" />
        </label>
        <label>
          {t("destination")}
          <select name="destination_id" required>
            {destinations.map((d) => (
              <option key={d.id} value={d.id}>
                {destinationText(d)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("description")} ({t("optional")})
          <input name="description" maxLength={140} autocomplete="off" />
        </label>
        <button type="submit" disabled={destinations.length === 0}>
          {t("continue")}
        </button>
      </form>
      {destinations.length === 0 && <p>{t("need_destination")}</p>}
      {confirming && (
        <div class="confirm payout-confirm" role="dialog" aria-modal="false" aria-labelledby="payout-check">
          <h3 id="payout-check">{t("payout_check")}</h3>
          <dl class="facts">
            <dt>{t("amount")}</dt>
            <dd data-testid="confirm-amount">{money(confirming.amount)}</dd>
            <dt>{t("fee")}</dt>
            <dd data-testid="confirm-fee">{fee === null ? t("fee_unknown") : money(fee)}</dd>
            {fee !== null && (
              <>
                <dt>{t("total_debit")}</dt>
                <dd data-testid="confirm-total">{money(confirming.amount + fee)}</dd>
              </>
            )}
            <dt>{t("destination")}</dt>
            <dd class="name" data-testid="confirm-destination">
              {destinationText(confirming.destination)}
            </dd>
            {confirming.description && (
              <>
                <dt>{t("description")}</dt>
                <dd class="name">{confirming.description}</dd>
              </>
            )}
          </dl>
          <button type="button" disabled={busy} onClick={send}>
            {t("payout_confirm")}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(null)}>
            {t("cancel_action")}
          </button>
        </div>
      )}
    </div>
  );
}

function StatusBadge({ status, test }: { status: string; test?: string }) {
  return (
    <span class={`status p-${status}`} data-status={status} data-testid={test} title={status}>
      {payoutStatusText(status)}
    </span>
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
