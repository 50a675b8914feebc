/** @jsxImportSource preact */
/**
 * Webhooks: endpoints of the mode (create with events from the catalog, edit URL and events,
 * pause/activate, rotate the secret, delete; a secret is shown once, right after create or
 * rotate), the dead letters (FAILED deliveries) with retry, and the event catalog
 * (GET /v1/webhooks/event-catalog, legacy names marked). OWNER, ADMIN and DEVELOPER get the
 * buttons; the server decides.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiFailure } from "./api";
import { lang, t } from "./i18n";
import { Code, label } from "./labels";
import { dateTime } from "./format";
import type { Session } from "./main";
import { Alert, Notice } from "./messages";
import type { Delivery, Endpoint, EndpointWithSecret } from "./wire";

/** One entry of GET /v1/webhooks/event-catalog. */
type CatalogEntry = { event: string; description: string; legacy?: boolean };

const message = (e: unknown) => (e instanceof ApiFailure ? `${e.code}: ${e.message}` : (e as Error).message);

export function Webhooks({ session }: { session: Session }) {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [catalog, setCatalog] = useState<CatalogEntry[]>([]);
  const [editing, setEditing] = useState<string | null>(null);
  const [dead, setDead] = useState<Delivery[]>([]);
  const [secret, setSecret] = useState<{ id: string; secret: string } | null>(null);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const mayManage = session.role !== "VIEWER";

  const load = async () => {
    try {
      setEndpoints((await api<{ data: Endpoint[] }>("GET", "/v1/webhooks/endpoints")).data);
      setDead((await api<{ data: Delivery[] }>("GET", "/v1/webhooks/deliveries?status=FAILED&limit=50")).data);
    } catch (e) {
      setError(message(e));
    }
  };
  useEffect(() => {
    void load();
    api<CatalogEntry[]>("GET", "/v1/webhooks/event-catalog").then(setCatalog, () => undefined);
  }, []);

  const act = async (f: () => Promise<void>) => {
    setError("");
    setNotice("");
    try {
      await f();
      await load();
    } catch (e) {
      setError(message(e));
    }
  };
  const create = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const events = f.getAll("events").map(String);
    void act(async () => {
      const ep = await api<EndpointWithSecret>("POST", "/v1/webhooks/endpoints", {
        url: String(f.get("url") ?? "").trim(),
        events,
      });
      setSecret({ id: ep.id, secret: ep.secret });
      form.reset();
    });
  };

  const subscribable = catalog.filter((c) => !c.legacy);
  const eventBoxes = (checked: string[] = []) => (
    <fieldset class="events">
      <legend>{t("events_col")}</legend>
      {subscribable.map((c) => (
        <label key={c.event}>
          <input type="checkbox" name="events" value={c.event} defaultChecked={checked.includes(c.event)} />
          <Code kind="event" code={c.event} />
        </label>
      ))}
    </fieldset>
  );
  const saveEdit = (id: string) => (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    void act(async () => {
      await api("PATCH", `/v1/webhooks/endpoints/${id}`, {
        url: String(f.get("url") ?? "").trim(),
        events: f.getAll("events").map(String),
      });
      setEditing(null);
      setNotice(t("saved"));
    });
  };

  return (
    <section>
      <h1>{t("webhooks")}</h1>
      <Alert text={error} />
      <Notice text={notice} />
      {secret && (
        <div class="secret" role="status" data-testid="secret">
          <p>{t("secret_once")}</p>
          <code>{secret.secret}</code>
          <button type="button" onClick={() => setSecret(null)}>
            {t("done")}
          </button>
        </div>
      )}
      <h2>{t("endpoints")}</h2>
      {!endpoints ? (
        <p>{t("loading")}</p>
      ) : endpoints.length === 0 ? (
        <p>{t("no_endpoints")}</p>
      ) : (
        <table class="endpoints">
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">{t("events_col")}</th>
              <th scope="col">{t("status")}</th>
              {mayManage && <th scope="col">{t("actions")}</th>}
            </tr>
          </thead>
          <tbody>
            {endpoints.map((ep) =>
              editing === ep.id ? (
                <tr key={ep.id} data-id={ep.id}>
                  <td colSpan={mayManage ? 4 : 3}>
                    <form class="edit-endpoint" onSubmit={saveEdit(ep.id)}>
                      <label>
                        URL
                        <input name="url" type="url" required defaultValue={ep.url} />
                      </label>
                      {eventBoxes(ep.events)}
                      <button type="submit">{t("save")}</button>
                      <button type="button" onClick={() => setEditing(null)}>
                        {t("cancel_action")}
                      </button>
                    </form>
                  </td>
                </tr>
              ) : (
                <tr key={ep.id} data-id={ep.id}>
                  <td class="name">{ep.url}</td>
                  <td title={ep.events.join(", ")}>{ep.events.map((e: string) => label("event", e)).join(", ")}</td>
                  <td>
                    <Code kind="endpoint" code={ep.status} />
                  </td>
                  {mayManage && (
                    <td class="row-actions">
                      <button type="button" onClick={() => setEditing(ep.id)}>
                        {t("edit")}
                      </button>
                      <button
                        type="button"
                        onClick={() =>
                          act(() =>
                            api("PATCH", `/v1/webhooks/endpoints/${ep.id}`, {
                              status: ep.status === "ACTIVE" ? "INACTIVE" : "ACTIVE",
                            }),
                          )
                        }
                      >
                        {ep.status === "ACTIVE" ? t("pause") : t("activate")}
                      </button>
                      <button
                        type="button"
                        onClick={() =>
                          act(async () =>
                            setSecret(
                              await api("POST", `/v1/webhooks/endpoints/${ep.id}/rotate-secret`, { id: ep.id }),
                            ),
                          )
                        }
                      >
                        {t("rotate_secret")}
                      </button>
                      <button
                        type="button"
                        onClick={() => {
                          if (confirm(`${t("delete")} ${ep.url}?`))
                            void act(() => api("DELETE", `/v1/webhooks/endpoints/${ep.id}`));
                        }}
                      >
                        {t("delete")}
                      </button>
                    </td>
                  )}
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
      {mayManage && (
        <form class="new-endpoint" onSubmit={create}>
          <h3>{t("new_endpoint")}</h3>
          <label>
            URL
            <input name="url" type="url" required placeholder="https://" />
          </label>
          {eventBoxes()}
          <button type="submit">{t("create")}</button>
        </form>
      )}
      <h2>{t("dead_letters")}</h2>
      {dead.length === 0 ? (
        <p>{t("no_dead_letters")}</p>
      ) : (
        <table class="dead">
          <thead>
            <tr>
              <th scope="col">{t("created")}</th>
              <th scope="col">{t("event")}</th>
              <th scope="col">HTTP</th>
              <th scope="col">{t("attempts")}</th>
              {mayManage && <th scope="col">{t("actions")}</th>}
            </tr>
          </thead>
          <tbody>
            {dead.map((d) => (
              <tr key={d.id} data-id={d.id}>
                <td>{dateTime(d.createdAt)}</td>
                <td>
                  <Code kind="event" code={d.eventType} />
                </td>
                <td>{d.lastStatusCode ?? d.lastError ?? "—"}</td>
                <td>
                  {d.attempts}/{d.maxAttempts}
                </td>
                {mayManage && (
                  <td>
                    <button
                      type="button"
                      onClick={() =>
                        act(async () => {
                          await api("POST", `/v1/webhooks/deliveries/${d.id}/retry`, {});
                          setNotice(t("retried"));
                        })
                      }
                    >
                      {t("retry")}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>{t("event_catalog")}</h2>
      <table class="catalog">
        <thead>
          <tr>
            <th scope="col">{t("event")}</th>
            <th scope="col">{t("description")}</th>
          </tr>
        </thead>
        <tbody>
          {catalog.map((c) => (
            <tr key={c.event} data-event={c.event}>
              <td>
                <code>{c.event}</code>
                {c.legacy && <span class="legacy"> ({t("legacy")})</span>}
              </td>
              <td class="name" title={c.description}>
                {lang() === "en" ? c.description : label("event", c.event)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
