/** @jsxImportSource preact */
/**
 * Settings as the account may see them (GET /v1/account): fees, settlement delay, limits; and in
 * live mode the Pix provider connection's status (GET /v1/account/pix-provider) and the card
 * connection's (GET /v1/account/card-provider). Read-only: the
 * operator sets them.
 */
import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiFailure, api, currentMode } from "./api";
import { t } from "./i18n";
import { dateTime, duration, money } from "./format";

export function Settings() {
  const [acct, setAcct] = useState<any>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api("GET", "/v1/account").then(setAcct, (e) => setError(e.message));
  }, []);
  if (!acct) return error ? <p role="alert" class="error">{error}</p> : <p>{t("loading")}</p>;
  const s = acct.settings;
  const rows: [string, string, string][] = [
    ["legal-name", t("legal_name"), s.legal_name ?? "—"],
    ["tax-id", t("tax_id"), s.tax_id ?? "—"],
    ["pix-fee", t("pix_fee"), `${(s.pix_fee_bps / 100).toFixed(2).replace(".", ",")} % + ${money(s.pix_fee_fixed)}`],
    ["settlement-delay", t("settlement_delay"), duration(s.settlement_delay_seconds)],
    ["default-expiry", t("default_expiry"), duration(s.default_expires_in)],
    ["payer-lock", t("payer_lock"), s.payer_lock_enabled ? t("yes") : t("no")],
  ];
  return (
    <section>
      <h1>{t("settings")}</h1>
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

/** The live Pix connection: PSP, key, certificate expiry, webhook registration; "none" on 404. */
function PixConnection() {
  const [conn, setConn] = useState<any>(undefined);
  const [error, setError] = useState("");
  useEffect(() => {
    api("GET", "/v1/account/pix-provider").then(setConn, (e) => (e instanceof ApiFailure && e.status === 404 ? setConn(null) : setError(e.message)));
  }, []);
  const body =
    error ? (
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
            ["pix-webhook", t("pix_webhook"), conn.webhook_registered ? t("pix_webhook_registered") : t("pix_webhook_missing")],
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
  const [conn, setConn] = useState<any>(undefined);
  const [error, setError] = useState("");
  useEffect(() => {
    api("GET", "/v1/account/card-provider").then(setConn, (e) => (e instanceof ApiFailure && e.status === 404 ? setConn(null) : setError(e.message)));
  }, []);
  const body =
    error ? (
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
