/** @jsxImportSource preact */
/**
 * Settings as the account may see them (GET /v1/account): fees, settlement delay, limits; and in
 * live mode the Pix provider connection's status (GET /v1/account/pix-provider) and the card
 * connection's (GET /v1/account/card-provider). Read-only: the
 * operator sets them. Above them the merchant profile, which OWNER and ADMIN edit (Profile).
 */
import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiFailure, api, currentMode } from "./api";
import { t } from "./i18n";
import { dateTime, duration, money } from "./format";
import type { Account, AccountCardProvider, AccountPixProvider, MerchantProfile } from "./wire";

export function Settings({ session }: { session?: { role: string } }) {
  const [acct, setAcct] = useState<Account | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api<Account>("GET", "/v1/account").then(setAcct, (e) => setError(e.message));
  }, []);
  if (!acct)
    return error ? (
      <p role="alert" class="error">
        {error}
      </p>
    ) : (
      <p>{t("loading")}</p>
    );
  const s = acct.settings;
  const rows: [string, string, string][] = [
    ["pix-fee", t("pix_fee"), `${(s.pix_fee_bps / 100).toFixed(2).replace(".", ",")} % + ${money(s.pix_fee_fixed)}`],
    ["settlement-delay", t("settlement_delay"), duration(s.settlement_delay_seconds)],
    ["default-expiry", t("default_expiry"), duration(s.default_expires_in)],
    ["payer-lock", t("payer_lock"), s.payer_lock_enabled ? t("yes") : t("no")],
  ];
  return (
    <section>
      <h1>{t("settings")}</h1>
      <Profile mayEdit={session?.role === "OWNER" || session?.role === "ADMIN"} />
      <h2>{t("platform_settings")}</h2>
      <p>{t("settings_note")}</p>
      <dl class="facts">
        {rows.map(([id, label, value]) => (
          <Fragment key={id}>
            <dt>{label}</dt>
            <dd data-testid={id} class="name">
              {value}
            </dd>
          </Fragment>
        ))}
      </dl>
      {currentMode() === "live" && <PixConnection />}
      {currentMode() === "live" && <CardConnection />}
    </section>
  );
}

/** The merchant profile's fields, in form order: [wire name, label key, input type, autocomplete]. */
const PROFILE_FIELDS = [
  ["trade_name", "trade_name", "text", "organization"],
  ["legal_name", "legal_name", "text", "organization"],
  ["tax_id", "tax_id", "text", "off"],
  ["support_email", "support_email", "email", "email"],
  ["support_phone", "support_phone", "tel", "tel"],
] as const;

/**
 * The merchant profile (GET/PATCH /v1/account/profile; extensions.md "Merchant profile and a
 * repeatable first run"): who payers see on the checkout, receipts and boletos. OWNER and ADMIN
 * edit it until the operator locks it; everyone else reads it. An emptied field is cleared (null).
 */
function Profile({ mayEdit }: { mayEdit: boolean }) {
  const [p, setP] = useState<MerchantProfile | null>(null);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<MerchantProfile>("GET", "/v1/account/profile").then(setP, (e) => setError(e.message));
  }, []);
  if (!p)
    return error ? (
      <p role="alert" class="error">
        {error}
      </p>
    ) : (
      <p>{t("loading")}</p>
    );
  const editable = mayEdit && !p.profile_locked;
  const save = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const body: Record<string, string | null> = {};
    for (const [name] of PROFILE_FIELDS) {
      const v = String(form.get(name) ?? "").trim();
      if (v !== (p[name] ?? "")) body[name] = v === "" ? null : v;
    }
    setBusy(true);
    setError("");
    setNotice("");
    try {
      setP(await api("PATCH", "/v1/account/profile", body));
      setNotice(t("profile_saved"));
    } catch (err) {
      setError(err instanceof ApiFailure ? `${t("profile_not_saved")} ${err.message}` : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="profile" aria-labelledby="profile-title">
      <h2 id="profile-title">{t("profile")}</h2>
      <p>{p.profile_locked ? t("profile_locked") : t("profile_note")}</p>
      {editable ? (
        <form class="profile-form" onSubmit={save} key={JSON.stringify(p)}>
          {PROFILE_FIELDS.map(([name, label, type, autocomplete]) => (
            <label key={name}>
              {t(label)}
              <input
                name={name}
                type={type as "text"}
                autoComplete={autocomplete}
                defaultValue={p[name] ?? ""}
                data-testid={`profile-${name}`}
              />
            </label>
          ))}
          <button type="submit" disabled={busy}>
            {t("save")}
          </button>
          {notice && (
            <p role="status" data-testid="profile-saved">
              {notice}
            </p>
          )}
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
        </form>
      ) : (
        <dl class="facts">
          {PROFILE_FIELDS.map(([name, label]) => (
            <Fragment key={name}>
              <dt>{t(label)}</dt>
              <dd data-testid={`profile-${name}`} class="name">
                {p[name] ?? "—"}
              </dd>
            </Fragment>
          ))}
        </dl>
      )}
    </section>
  );
}

/** The live Pix connection: PSP, key, certificate expiry, webhook registration; "none" on 404. */
function PixConnection() {
  const [conn, setConn] = useState<AccountPixProvider | null | undefined>(undefined);
  const [error, setError] = useState("");
  useEffect(() => {
    api<AccountPixProvider>("GET", "/v1/account/pix-provider").then(setConn, (e) =>
      e instanceof ApiFailure && e.status === 404 ? setConn(null) : setError(e.message),
    );
  }, []);
  const body = error ? (
    <p role="alert" class="error">
      {error}
    </p>
  ) : conn === undefined ? (
    <p>{t("loading")}</p>
  ) : conn === null ? (
    <p data-testid="pix-connection-none">{t("pix_connection_none")}</p>
  ) : (
    <dl class="facts">
      {(
        [
          ["pix-api-url", t("pix_api_url"), conn.api_url],
          ["pix-key", t("pix_key"), conn.pix_key],
          ["pix-certificate-expires", t("certificate_expires"), dateTime(conn.certificate_expires_at)],
          [
            "pix-webhook",
            t("pix_webhook"),
            conn.webhook_registered ? t("pix_webhook_registered") : t("pix_webhook_missing"),
          ],
          ["pix-updated", t("updated"), dateTime(conn.updated_at)],
        ] as [string, string, string][]
      ).map(([id, label, value]) => (
        <Fragment key={id}>
          <dt>{label}</dt>
          <dd data-testid={id} class="name">
            {value}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
  return (
    <section class="pix-connection" aria-labelledby="pix-connection-title">
      <h2 id="pix-connection-title">{t("pix_connection")}</h2>
      {body}
    </section>
  );
}

/** The live card connection: Stripe account and the key's last four characters (never the key); "none" on 404. */
function CardConnection() {
  const [conn, setConn] = useState<AccountCardProvider | null | undefined>(undefined);
  const [error, setError] = useState("");
  useEffect(() => {
    api<AccountCardProvider>("GET", "/v1/account/card-provider").then(setConn, (e) =>
      e instanceof ApiFailure && e.status === 404 ? setConn(null) : setError(e.message),
    );
  }, []);
  const body = error ? (
    <p role="alert" class="error">
      {error}
    </p>
  ) : conn === undefined ? (
    <p>{t("loading")}</p>
  ) : conn === null ? (
    <p data-testid="card-connection-none">{t("card_connection_none")}</p>
  ) : (
    <dl class="facts">
      {(
        [
          ["card-account", t("card_account"), conn.provider_account_id ?? "—"],
          ["card-key", t("card_key"), `•••• ${conn.key_last4}`],
          ["card-updated", t("updated"), dateTime(conn.updated_at)],
        ] as [string, string, string][]
      ).map(([id, label, value]) => (
        <Fragment key={id}>
          <dt>{label}</dt>
          <dd data-testid={id} class="name">
            {value}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
  return (
    <section class="card-connection" aria-labelledby="card-connection-title">
      <h2 id="card-connection-title">{t("card_connection")}</h2>
      {body}
    </section>
  );
}
