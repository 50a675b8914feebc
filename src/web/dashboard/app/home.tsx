/** @jsxImportSource preact */
/**
 * Home: balances (GET /v1/wallets/balance), today's and 30-day volume (GET /v1/payments/stats),
 * conversion and median time to pay (GET /v1/payments/metrics), and the daily paid volume chart
 * (uPlot, drawn from the stats' daily aggregates).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { api } from "./api";
import { lang, t } from "./i18n";
import { dateTime, duration, money } from "./format";
import type { Balance, PaymentMetrics, PaymentStats } from "./wire";

interface Data {
  balance: Balance;
  stats: PaymentStats;
  metrics: PaymentMetrics;
}

function Card({ label, value, test }: { label: string; value: string; test: string }) {
  return (
    <div class="card" data-testid={test}>
      <div class="label">{label}</div>
      <div class="value">{value}</div>
    </div>
  );
}

/** A chart x value (unix seconds at noon UTC of a São Paulo calendar day) as that day, e.g. "20/11". */
const day = (v: number) =>
  new Intl.DateTimeFormat(lang() === "en" ? "en-US" : "pt-BR", {
    timeZone: "UTC",
    day: "2-digit",
    month: "2-digit",
  }).format(new Date(v * 1000));

function Chart({ daily }: { daily: { date: string; currencies: Record<string, number> }[] }) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const xs = daily.map((d) => Date.parse(`${d.date}T12:00:00Z`) / 1000);
    const ys = daily.map((d) => (d.currencies.BRL ?? 0) / 100);
    const plot = new uPlot(
      {
        width: Math.max(280, Math.min(900, el.current.clientWidth || 600)),
        height: 220,
        series: [
          { label: t("date"), value: (_u, v) => (v == null ? "—" : day(v)) },
          {
            label: "BRL",
            stroke: "#0b6e4f",
            width: 2,
            fill: "rgba(11,110,79,0.12)",
            value: (_u, v) => (v == null ? "—" : money(Math.round(v * 100))),
          },
        ],
        axes: [
          { values: (_u, vals) => vals.map(day) },
          { values: (_u, vals) => vals.map((v) => money(Math.round(v * 100)).replace(/,00$/, "")), size: 90 },
        ],
      },
      [xs, ys],
      el.current,
    );
    return () => plot.destroy();
  }, [daily]);
  return <div ref={el} class="chart" role="img" aria-label={t("daily_volume")} />;
}

export function Home() {
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    Promise.all([
      api<Balance>("GET", "/v1/wallets/balance"),
      api<PaymentStats>("GET", "/v1/payments/stats?days=30"),
      api<PaymentMetrics>("GET", "/v1/payments/metrics?days=30"),
    ]).then(
      ([balance, stats, metrics]) => setData({ balance, stats, metrics }),
      (e) => setError(e.message),
    );
  }, []);
  if (error)
    return (
      <p role="alert" class="error">
        {error}
      </p>
    );
  if (!data) return <p>{t("loading")}</p>;
  const { balance, stats, metrics } = data;
  const cur = balance.currency ?? "BRL";
  const vol30 = stats.volumeByCurrency.find((v) => v.currency === cur)?.volume ?? 0;
  const next = balance.next_release_at
    ? `${money(balance.next_release_amount ?? 0, cur)} · ${dateTime(balance.next_release_at)}`
    : t("none");
  return (
    <section>
      <h1>{t("home")}</h1>
      <div class="cards">
        <Card test="available" label={t("available")} value={money(balance.available, cur)} />
        <Card test="pending" label={t("pending")} value={money(balance.pending, cur)} />
        <Card test="retained" label={t("retained")} value={money(balance.retained ?? 0, cur)} />
        <Card test="next-release" label={t("next_release")} value={next} />
      </div>
      <div class="cards">
        <Card test="today-volume" label={t("today_volume")} value={money(stats.todayVolumeByCurrency[cur] ?? 0, cur)} />
        <Card test="volume-30d" label={t("volume_30d")} value={money(vol30, cur)} />
        <Card
          test="conversion"
          label={t("conversion")}
          value={`${String(metrics.conversionRate).replace(".", ",")} %`}
        />
        <Card test="median" label={t("median_time")} value={duration(metrics.medianTimeToPaySeconds)} />
      </div>
      <h2>{t("daily_volume")}</h2>
      <Chart daily={stats.dailyVolume} />
    </section>
  );
}
