/**
 * `bun run check:dashboard-budget`: the dashboard's initial JavaScript must stay within 150 kB
 * gzipped (issue 15 "Budgets"). Builds src/web/dashboard/index.html the two ways it is served:
 * minified (what `bun src/main.ts serve` builds in memory, src/web/dashboard/assets.ts) and
 * unminified (what `bun build --compile` embeds in dist/cofre). Prints one line per form. Then
 * the render budget (scripts/check-dashboard-render.ts: 50 rows within 100 ms of their data, in
 * Chromium). Exits 1 when any figure is over its budget.
 */
import { join } from "node:path";
import { RENDER_BUDGET_MS, measureRender, report } from "./check-dashboard-render";

const BUDGET = 150 * 1024;
const entry = join(import.meta.dir, "..", "src", "web", "dashboard", "index.html");
let over = false;
for (const minify of [true, false]) {
  const r = await Bun.build({ entrypoints: [entry], minify, target: "browser" });
  if (!r.success) throw new AggregateError(r.logs, "The dashboard bundle failed to build.");
  let js = 0;
  let css = 0;
  for (const o of r.outputs) {
    const gz = Bun.gzipSync(new Uint8Array(await o.arrayBuffer())).length;
    if (o.path.endsWith(".js")) js += gz;
    else if (o.path.endsWith(".css")) css += gz;
  }
  const form = minify ? "minified (bun src/main.ts serve)" : "unminified (dist/cofre)";
  console.log(
    `dashboard ${form}: initial JS ${(js / 1024).toFixed(1)} kB gzipped, CSS ${(css / 1024).toFixed(1)} kB gzipped; budget ${BUDGET / 1024} kB JS`,
  );
  if (js > BUDGET) over = true;
}
const render = await measureRender();
report(render);
if (render.frameWorst > RENDER_BUDGET_MS) over = true;
if (over) {
  console.error("Over a dashboard budget.");
  process.exit(1);
}
