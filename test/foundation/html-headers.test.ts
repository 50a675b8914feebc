/**
 * Every HTML answer carries the page security headers (issue 30 §3; src/http/html.ts): a CSP with
 * `frame-ancestors 'none'`, `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff` and a
 * `Referrer-Policy`. The routes are not listed by hand: the test asks every GET route of the app
 * (path parameters filled with a real charge's raw id, and with an unknown one) and checks each
 * answer that is HTML, and that the pages known to be HTML were among them.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { createHarness, type Harness } from "../support/harness";
import { key } from "../payments/support";

let h: Harness;
let rawId: string;
/** `METHOD path` -> the headers of each HTML answer it gave. */
const htmlAnswers = new Map<string, Headers[]>();

beforeAll(async () => {
  h = createHarness();
  const a = await h.seedAccount();
  const c = await h.call("POST", "/v1/pix/charges", {
    key: a.testKey,
    body: { amount: 1000 },
    headers: { "Idempotency-Key": key("html") },
  });
  expect(c.status).toBe(201);
  rawId = c.body.id.slice(3);
  const gets = h.app.routes.filter((r) => r.method === "GET" || r.method === "ALL").map((r) => r.path);
  expect(gets.length).toBeGreaterThan(20);
  for (const path of new Set(gets))
    for (const id of [rawId, "0000000000000000000000000000000000"]) {
      const url = path.replace(/:[A-Za-z_]+/g, id).replace(/\*$/, "index.html");
      const res = await h.app.handle(new Request(`http://localhost${url}`, { headers: { accept: "text/html" } }));
      await res.arrayBuffer();
      if (!(res.headers.get("content-type") ?? "").startsWith("text/html")) continue;
      const k = `GET ${path}`;
      htmlAnswers.set(k, [...(htmlAnswers.get(k) ?? []), res.headers]);
    }
});

describe("HTML answers", () => {
  test("the checkout, its not-found page, /docs and /dashboard are among the HTML routes found", () => {
    const base = new URL(h.deps.config.checkoutUrlBase).pathname;
    expect([...htmlAnswers.keys()]).toEqual(
      expect.arrayContaining([`GET ${base}/:raw_id`, "GET /docs", "GET /dashboard"]),
    );
    expect(htmlAnswers.get(`GET ${base}/:raw_id`)).toHaveLength(2); // the page and the not-found page
  });

  test("every HTML answer has a CSP with frame-ancestors 'none', X-Frame-Options DENY, nosniff and no-referrer", () => {
    const wrong: string[] = [];
    for (const [route, list] of htmlAnswers)
      for (const headers of list) {
        const csp = headers.get("content-security-policy") ?? "";
        const got = {
          frameAncestors: csp
            .split(";")
            .map((d) => d.trim())
            .includes("frame-ancestors 'none'"),
          xfo: headers.get("x-frame-options"),
          nosniff: headers.get("x-content-type-options"),
          referrer: headers.get("referrer-policy"),
        };
        if (!got.frameAncestors || got.xfo !== "DENY" || got.nosniff !== "nosniff" || got.referrer !== "no-referrer")
          wrong.push(`${route}: ${JSON.stringify(got)}`);
      }
    expect(wrong).toEqual([]);
  });

  test("/docs has a CSP that allows scripts only from this origin", () => {
    const csp = htmlAnswers.get("GET /docs")![0]!.get("content-security-policy")!;
    expect(csp.split("; ")).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
      ]),
    );
    expect(csp).not.toContain("unsafe-eval");
  });
});
