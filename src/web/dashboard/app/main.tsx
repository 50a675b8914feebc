/** @jsxImportSource preact */
/**
 * The merchant dashboard's shell (issue 15): login, the account name, the test/live switch (test
 * data marked by a banner), the language switch and a hash router over the pages. Every number
 * and rule comes from the JSON API (./api.ts); nothing here decides what the server allows.
 */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, ApiFailure, setCsrf, setMode, type Mode } from "./api";
import { lang, setLang, t, type Lang } from "./i18n";
import { Home } from "./home";
import { Payments } from "./payments";
import { PaymentDetail } from "./payment";
import { Webhooks } from "./webhooks";
import { Developers } from "./developers";
import { MedCase, MedCases } from "./med";
import { Settings } from "./settings";
import { Payouts } from "./payouts";
import { PayoutDetail } from "./payout-detail";
import { Statement } from "./statement";
import { Reconciliation } from "./reconciliation";
import { Alert } from "./messages";
import { Code, label } from "./labels";

export interface Session {
  account_id: string;
  account_name: string;
  email: string;
  role: "OWNER" | "ADMIN" | "DEVELOPER" | "VIEWER";
  csrf_token: string;
}

function useHash(): string {
  const [hash, setHash] = useState(location.hash || "#/");
  useEffect(() => {
    const on = () => setHash(location.hash || "#/");
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return hash;
}

function Login({ onIn }: { onIn: (s: Session) => void }) {
  const [error, setError] = useState("");
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setError("");
    try {
      onIn(
        await api<Session>("POST", "/v1/auth/session", { email: form.get("email"), password: form.get("password") }),
      );
    } catch (err) {
      setError(err instanceof ApiFailure && err.status === 429 ? err.message : t("bad_login"));
    }
  };
  return (
    <main class="login">
      <h1>{t("login_title")}</h1>
      <form onSubmit={submit}>
        <label>
          {t("email")}
          <input name="email" type="email" autocomplete="username" required />
        </label>
        <label>
          {t("password")}
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <Alert text={error} />
        <button type="submit">{t("login")}</button>
      </form>
    </main>
  );
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [mode, setModeState] = useState<Mode>(
    (sessionStorage.getItem("cofre.mode") as Mode) === "live" ? "live" : "test",
  );
  const [, setLangState] = useState<Lang>(lang());
  const hash = useHash();
  setMode(mode);

  useEffect(() => {
    // `probe=1`: 204 (not a 401 in the console) when nobody is signed in.
    api<Session | undefined>("GET", "/v1/auth/session?probe=1").then(
      (s) => (s ? signIn(s) : setSession(null)),
      () => setSession(null),
    );
  }, []);

  function signIn(s: Session) {
    setCsrf(s.csrf_token);
    setSession(s);
  }
  const logout = async () => {
    await api("DELETE", "/v1/auth/session").catch(() => undefined);
    setSession(null);
  };
  const switchMode = (m: Mode) => {
    sessionStorage.setItem("cofre.mode", m);
    setMode(m);
    setModeState(m);
  };
  const switchLang = (l: Lang) => {
    setLang(l);
    setLangState(l);
  };

  const langPicker = (
    <label class="lang">
      {t("language")}{" "}
      <select value={lang()} onChange={(e) => switchLang((e.currentTarget as HTMLSelectElement).value as Lang)}>
        <option value="pt-BR">Português</option>
        <option value="en">English</option>
      </select>
    </label>
  );
  if (session === undefined) return <p class="loading">{t("loading")}</p>;
  if (session === null)
    return (
      <div>
        <header class="bar">{langPicker}</header>
        <Login onIn={signIn} />
      </div>
    );

  const detail = /^#\/payments\/([^/?]+)$/.exec(hash);
  const medCase = /^#\/med\/([^/?]+)$/.exec(hash);
  const payout = /^#\/payouts\/([^/?]+)$/.exec(hash);
  const section = hash.startsWith("#/payments")
    ? "payments"
    : hash.startsWith("#/payouts")
      ? "payouts"
      : hash.startsWith("#/statement")
        ? "statement"
        : hash.startsWith("#/reconciliation")
          ? "reconciliation"
          : hash.startsWith("#/med")
            ? "med"
            : hash.startsWith("#/webhooks")
              ? "webhooks"
              : hash.startsWith("#/developers")
                ? "developers"
                : hash.startsWith("#/settings")
                  ? "settings"
                  : "home";
  const page = detail ? (
    <PaymentDetail key={`${mode}:${detail[1]}`} id={decodeURIComponent(detail[1]!)} session={session} />
  ) : payout ? (
    <PayoutDetail key={`${mode}:${payout[1]}`} id={decodeURIComponent(payout[1]!)} session={session} />
  ) : medCase ? (
    <MedCase key={`${mode}:${medCase[1]}`} id={decodeURIComponent(medCase[1]!)} session={session} />
  ) : section === "med" ? (
    <MedCases key={mode} />
  ) : section === "payments" ? (
    <Payments key={mode} />
  ) : section === "payouts" ? (
    <Payouts key={mode} session={session} />
  ) : section === "statement" ? (
    <Statement key={mode} />
  ) : section === "reconciliation" ? (
    <Reconciliation key={mode} />
  ) : section === "webhooks" ? (
    <Webhooks key={mode} session={session} />
  ) : section === "developers" ? (
    <Developers key={mode} session={session} />
  ) : section === "settings" ? (
    <Settings key={mode} session={session} />
  ) : (
    <Home key={mode} />
  );
  const link = (href: string, name: string, label: string) => (
    <a href={href} aria-current={section === name ? "page" : undefined}>
      {label}
    </a>
  );
  return (
    <div class={`shell mode-${mode}`} data-mode={mode}>
      {mode === "test" && (
        <div class="sandbox" role="status">
          {t("sandbox_banner")}
        </div>
      )}
      <header class="bar">
        <strong class="account" data-testid="account-name">
          {session.account_name}
        </strong>
        <nav aria-label="Cofre">
          {link("#/", "home", t("home"))}
          {link("#/payments", "payments", t("payments"))}
          {link("#/payouts", "payouts", t("payouts"))}
          {link("#/statement", "statement", t("statement"))}
          {link("#/reconciliation", "reconciliation", t("reconciliation"))}
          {link("#/med", "med", t("med"))}
          {link("#/webhooks", "webhooks", t("webhooks"))}
          {link("#/developers", "developers", t("developers"))}
          {link("#/settings", "settings", t("settings"))}
        </nav>
        <fieldset class="modes">
          <legend>{t("mode")}</legend>
          {(["test", "live"] as const).map((m) => (
            <label key={m}>
              <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => switchMode(m)} />
              {t(m === "test" ? "mode_test" : "mode_live")}
            </label>
          ))}
        </fieldset>
        {langPicker}
        <span class="who">
          {session.email} (<Code kind="role" code={session.role} />)
        </span>
        <button type="button" onClick={logout} title={`${session.email} (${label("role", session.role)})`}>
          {t("logout")}
        </button>
      </header>
      <main>{page}</main>
    </div>
  );
}

document.documentElement.lang = lang();
render(<App />, document.getElementById("app")!);
