/** @jsxImportSource preact */
/**
 * MED cases: the list (GET /v1/med/cases, cursor pages of 50) and a case (deadline countdown,
 * appeal with reason, accept, evidence by drag and drop or file picker through the signed
 * three-step flow: POST .../evidence -> PUT upload_url -> POST .../complete, and the money
 * outcome). OWNER and ADMIN get the buttons (MED moves money); the server decides anyway.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiFailure } from "./api";
import { t } from "./i18n";
import { dateTime, money } from "./format";
import { Code } from "./labels";
import type { Session } from "./main";
import { Alert, Notice } from "./messages";
import type { MedCase as Case, MedCaseList, MedEvidence, MedUploadRequest } from "./wire";

const message = (e: unknown) => (e instanceof ApiFailure ? `${e.code}: ${e.message}` : (e as Error).message);
const localPath = (url: string) => {
  const u = new URL(url, location.href);
  return u.pathname + u.search;
};

/** "2 d 03:04:05" until `iso`, or null when past. */
export function countdown(iso: string | null, now: number): string | null {
  if (!iso) return null;
  let s = Math.floor((Date.parse(iso) - now) / 1000);
  if (s <= 0) return null;
  const d = Math.floor(s / 86400);
  s %= 86400;
  const hms = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60]
    .map((n) => String(n).padStart(2, "0"))
    .join(":");
  return d > 0 ? `${d} d ${hms}` : hms;
}

export function MedCases() {
  const [pages, setPages] = useState<string[]>([""]);
  const [list, setList] = useState<MedCaseList | null>(null);
  const [error, setError] = useState("");
  const cursor = pages[pages.length - 1]!;
  useEffect(() => {
    api<MedCaseList>("GET", `/v1/med/cases?limit=50${cursor ? `&starting_after=${cursor}` : ""}`).then(setList, (e) =>
      setError(message(e)),
    );
  }, [cursor]);
  return (
    <section>
      <h1>{t("med")}</h1>
      <Alert text={error} />
      {!list ? (
        <p>{t("loading")}</p>
      ) : list.data.length === 0 ? (
        <p>{t("no_cases")}</p>
      ) : (
        <table class="cases">
          <thead>
            <tr>
              <th scope="col">{t("opened")}</th>
              <th scope="col">{t("case_type")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col">{t("deadline")}</th>
              <th scope="col" class="num">
                {t("amount")}
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((c) => (
              <tr key={c.id} data-id={c.id}>
                <td>
                  <a href={`#/med/${c.id}`}>{dateTime(c.opened_at)}</a>
                </td>
                <td data-testid="case-type">
                  <Code kind="med" code={c.type} />
                </td>
                <td>
                  <Code kind="med" code={c.status} />
                </td>
                <td>{dateTime(c.response_deadline)}</td>
                <td class="num">{money(c.amount, c.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t("page")}>
        <button type="button" disabled={pages.length <= 1} onClick={() => setPages(pages.slice(0, -1))}>
          {t("previous")}
        </button>
        <button type="button" disabled={!list?.has_more} onClick={() => setPages([...pages, list?.next_cursor ?? ""])}>
          {t("next")}
        </button>
      </nav>
    </section>
  );
}

export function MedCase({ id, session }: { id: string; session: Session }) {
  const [c, setC] = useState<Case | null>(null);
  const [evidence, setEvidence] = useState<MedEvidence[]>([]);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const [now, setNow] = useState(Date.now());
  const [dragging, setDragging] = useState(false);
  const mayAct = session.role === "OWNER" || session.role === "ADMIN";
  const load = async () => {
    try {
      setC(await api<Case>("GET", `/v1/med/cases/${encodeURIComponent(id)}`));
      setEvidence((await api<{ data: MedEvidence[] }>("GET", `/v1/med/cases/${encodeURIComponent(id)}/evidence`)).data);
    } catch (e) {
      setError(message(e));
    }
  };
  useEffect(() => {
    void load();
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [id]);
  const act = async (f: () => Promise<void>, done: string) => {
    setError("");
    setNotice("");
    try {
      await f();
      setNotice(done);
      await load();
    } catch (e) {
      setError(message(e));
    }
  };
  const upload = (files: FileList | null) => {
    const file = files?.[0];
    if (!file || !c) return;
    void act(async () => {
      const req = await api<MedUploadRequest>("POST", `/v1/med/cases/${c.id}/evidence`, {
        file_name: file.name,
        file_size: file.size,
        mime_type: file.type,
      });
      const put = await fetch(localPath(req.upload_url), {
        method: "PUT",
        headers: { "content-type": req.upload_headers["Content-Type"] },
        body: file,
      });
      if (!put.ok) throw new Error(`upload: HTTP ${put.status}`);
      await api("POST", `/v1/med/cases/${c.id}/evidence/${req.id}/complete`, {});
    }, t("evidence_done"));
  };
  if (!c)
    return error ? (
      <p role="alert" class="error">
        {error}
      </p>
    ) : (
      <p>{t("loading")}</p>
    );
  const left = c.status === "open" ? countdown(c.response_deadline, now) : null;
  return (
    <section>
      <a href="#/med">{t("back_med")}</a>
      <h1>
        MED {money(c.amount, c.currency)} <Code kind="med" code={c.status} testid="case-status" />
      </h1>
      {left && (
        <p class="countdown" role="timer" data-testid="countdown">
          {t("time_left")}: {left}
        </p>
      )}
      <dl class="facts">
        <dt>{t("id")}</dt>
        <dd>
          <code>{c.id}</code>
        </dd>
        <dt>{t("payments")}</dt>
        <dd>
          <a href={`#/payments/${c.charge_id}`}>{c.charge_id}</a>
        </dd>
        <dt>{t("reason")}</dt>
        <dd class="name">{c.reason ?? "—"}</dd>
        <dt>{t("deadline")}</dt>
        <dd>{dateTime(c.response_deadline)}</dd>
        <dt>{t("money_outcome")}</dt>
        <dd data-testid="money-outcome">
          {c.money_outcome ? <Code kind="med_outcome" code={c.money_outcome} /> : "—"}
        </dd>
        {c.appeal_reason && (
          <>
            <dt>{t("appeal")}</dt>
            <dd class="name">{c.appeal_reason}</dd>
          </>
        )}
      </dl>
      <Notice text={notice} />
      <Alert text={error} />
      {mayAct && c.status === "open" && (
        <div class="med-actions">
          <form
            class="appeal"
            onSubmit={(e) => {
              e.preventDefault();
              const reason = String(new FormData(e.currentTarget as HTMLFormElement).get("reason") ?? "").trim();
              void act(() => api("POST", `/v1/med/cases/${c.id}/appeal`, { reason }), t("appealed_done"));
            }}
          >
            <label>
              {t("appeal_reason")}
              <textarea name="reason" minLength={5} maxLength={2000} required rows={3} />
            </label>
            <button type="submit">{t("appeal")}</button>
          </form>
          <button
            type="button"
            onClick={() => {
              if (confirm(t("accept_confirm")))
                void act(() => api("POST", `/v1/med/cases/${c.id}/accept`, {}), t("accepted_done"));
            }}
          >
            {t("accept")}
          </button>
        </div>
      )}
      <h2>{t("evidence")}</h2>
      {evidence.length === 0 ? (
        <p>{t("no_evidence")}</p>
      ) : (
        <ul class="evidence">
          {evidence.map((ev) => (
            <li key={ev.id} data-id={ev.id}>
              <a href={localPath(ev.view_url)} target="_blank" rel="noopener noreferrer">
                {ev.file_name}
              </a>{" "}
              ({Math.ceil(ev.file_size / 1024)} kB, {dateTime(ev.uploaded_at)})
            </li>
          ))}
        </ul>
      )}
      {mayAct && (c.status === "open" || c.status === "appealed") && (
        <label
          class={`dropzone${dragging ? " over" : ""}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            upload(e.dataTransfer?.files ?? null);
          }}
        >
          {t("drop_evidence")}
          <input
            type="file"
            name="evidence"
            accept="image/png,image/jpeg,image/webp,image/gif,application/pdf"
            onChange={(e) => upload((e.currentTarget as HTMLInputElement).files)}
          />
        </label>
      )}
    </section>
  );
}
