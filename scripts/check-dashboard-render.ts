/**
 * The dashboard's render budget (issue 15 "Budgets"): a list page of 50 rows renders within
 * 100 ms of its data arriving. Runs the app in process on an in-memory database with a sandbox
 * account of 120 payments (hostile-length customer names), opens the payments page in Debian
 * Chromium (test/support/browser.ts; fails loudly without it) and reads the page's own
 * `performance.measure` entries (src/web/dashboard/app/payments.tsx): `payments:render` = answer
 * parsed -> 50 rows committed to the DOM, `payments:frame` = answer parsed -> the next frame.
 * Pages 1, 2, 3 are loaded ROUNDS times each; prints the median and worst of each measure and
 * PASS/FAIL on the worst frame. `measureRender()` returns the figures (used by check-dashboard-budget.ts).
 */
import { createHarness } from "../test/support/harness";
import { launchChromium } from "../test/support/browser";

export const RENDER_BUDGET_MS = 100;
const ROUNDS = 10;
const ROWS = 50;

export interface RenderFigures {
  renderMedian: number;
  renderWorst: number;
  frameMedian: number;
  frameWorst: number;
  samples: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Seeds, measures and returns the figures (milliseconds). */
export async function measureRender(): Promise<RenderFigures> {
  const h = createHarness();
  h.app.listen({ port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${h.app.server!.port}`;
  h.deps.config.publicUrl = base;
  h.deps.config.checkoutUrlBase = `${base}/c`;
  const a = await h.seedAccount({ name: "Padaria Pão Quente" });
  for (let i = 0; i < 3 * ROWS; i++) {
    const r = await h.call("POST", "/v1/payments", {
      key: a.testKey,
      body: {
        amount: 1000 + i,
        paymentMethods: ["PIX"],
        idempotencyKey: `render-${i}-${crypto.randomUUID()}`,
        customerName: `Cliente ${i} ${"x".repeat(150)}`,
      },
    });
    if (r.status !== 201) throw new Error(`seeding payment ${i}: ${r.status}`);
  }
  const browser = await launchChromium();
  const render: number[] = [];
  const frame: number[] = [];
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${base}/dashboard`);
    await page.fill('input[name="email"]', a.email);
    await page.fill('input[name="password"]', a.password);
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-testid="account-name"]');
    await page.goto(`${base}/dashboard#/payments`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const step of ["first", "next", "next"] as const) {
        await page.evaluate(() => performance.clearMeasures());
        if (step === "first") {
          await page.goto(`${base}/dashboard#/`);
          await page.goto(`${base}/dashboard#/payments`);
        } else await page.click("nav.pager button:last-child");
        await page.waitForFunction(() => performance.getEntriesByName("payments:frame", "measure").length > 0);
        const rows = await page.locator("tbody tr").count();
        if (rows !== ROWS) throw new Error(`expected ${ROWS} rows on the page, saw ${rows}`);
        const m = await page.evaluate(() => ({
          render: performance.getEntriesByName("payments:render", "measure").at(-1)!.duration,
          frame: performance.getEntriesByName("payments:frame", "measure").at(-1)!.duration,
        }));
        render.push(m.render);
        frame.push(m.frame);
      }
    }
  } finally {
    await browser.close();
    await h.app.stop(true);
  }
  return {
    renderMedian: median(render),
    renderWorst: Math.max(...render),
    frameMedian: median(frame),
    frameWorst: Math.max(...frame),
    samples: render.length,
  };
}

if (import.meta.main) {
  const f = await measureRender();
  report(f);
  if (f.frameWorst > RENDER_BUDGET_MS) process.exit(1);
}

/** Prints the figures and PASS/FAIL (the worst frame against the budget). */
export function report(f: RenderFigures): void {
  console.log(
    `dashboard payments list, ${ROWS} rows, ${f.samples} loads: data -> DOM median ${f.renderMedian.toFixed(1)} ms, worst ${f.renderWorst.toFixed(1)} ms; ` +
      `data -> next frame median ${f.frameMedian.toFixed(1)} ms, worst ${f.frameWorst.toFixed(1)} ms; budget ${RENDER_BUDGET_MS} ms: ${f.frameWorst <= RENDER_BUDGET_MS ? "PASS" : "FAIL"}`,
  );
}
