/**
 * The curl sample the reference UI (/docs, Scalar, in a real Chromium) shows for "Create a Pix
 * charge" works when sent as shown, with only the apikey placeholder replaced: 201 and a pending
 * charge. (Before issue 13 it lacked the Idempotency-Key header and carried a body made from the
 * schema, `"currency": ""` and the like: 400.) Needs Chromium (test/support/browser.ts); fails loudly when none is
 * found.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext } from "playwright-core";
import { chromiumPath, sharedChromium } from "../support/browser";
import { createHarness } from "../support/harness";

const h = createHarness();
let context: BrowserContext | undefined;
let server: ReturnType<typeof Bun.serve> | undefined;
// Outside the tests: a test that times out has the processes it started killed, and the browser is shared.
beforeAll(async () => {
  context = await (await sharedChromium()).newContext();
});
afterAll(async () => {
  await context?.close();
  server?.stop(true);
});

/** URL, headers and body of a curl command as Scalar prints it (`--header 'K: V'`, `--data '...'`). */
function parseCurl(sample: string): {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
} {
  const url = /^curl (\S+)/.exec(sample)?.[1];
  if (!url) throw new Error(`not a curl sample:\n${sample}`);
  const headers: Record<string, string> = {};
  for (const m of sample.matchAll(/--header '([^:']+): ([^']*)'/g)) headers[m[1]!] = m[2]!;
  const method = /--request (\w+)/.exec(sample)?.[1] ?? "GET";
  const body = /--data '([\s\S]*)'\s*$/.exec(sample)?.[1];
  return { url, method, headers, body };
}

describe("the reference UI's curl sample", () => {
  test("has a Chromium to run in (apt-get install -y chromium)", () => {
    expect(chromiumPath()).toBeDefined();
  });

  test("for Create a Pix charge creates a charge when sent as shown", async () => {
    const a = await h.seedAccount();
    server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => h.app.handle(req) });
    const base = `http://127.0.0.1:${server.port}`;
    const page = await context!.newPage();
    await page.goto(`${base}/docs#tag/charges/POST/v1/pix/charges`);
    await page.getByText("Create a Pix charge (shortcut").first().waitFor({ timeout: 30_000 });
    const sample = await page
      .waitForFunction(
        () =>
          [...document.querySelectorAll("pre, code")]
            .map((e) => (e as HTMLElement).innerText)
            .find((t) => t.startsWith("curl") && t.includes("/v1/pix/charges")),
        undefined,
        { timeout: 30_000 },
      )
      .then((handle) => handle.jsonValue() as Promise<string>);
    const curl = parseCurl(sample);
    // The documented server is the public URL (COFRE_PUBLIC_URL); this test's server listens elsewhere.
    expect(curl.url).toBe("http://localhost:3000/v1/pix/charges");
    expect(curl.method).toBe("POST");
    expect(Object.keys(curl.headers).sort()).toEqual(["Content-Type", "Idempotency-Key", "apikey"]);
    const res = await fetch(`${base}/v1/pix/charges`, {
      method: curl.method,
      headers: { ...curl.headers, apikey: a.testKey },
      body: curl.body,
    });
    const body = (await res.json()) as { object: string; status: string; amount: number };
    expect([res.status, body.object, body.status]).toEqual([201, "charge", "pending"]);
    expect(body.amount).toBe(JSON.parse(curl.body!).amount);
  }, 90_000);
});
