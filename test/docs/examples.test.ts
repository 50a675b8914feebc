/**
 * The request examples of the reference work: the "Create a Pix charge" sample, sent the way the
 * reference UI's curl sample sends it (documented headers with their examples, the example body),
 * creates a charge; and the example body of every POST/PATCH passes the route's own body schema
 * and its validation over HTTP.
 */
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { createHarness, type Harness } from "../support/harness";

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, Record<string, any>> };

/** Headers a generated sample sends: every header parameter with an example (resolved `$ref`s). */
function sampleHeaders(doc: Doc, op: any): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.parameters ?? []) {
    const param = p.$ref ? doc.components.parameters![p.$ref.split("/").pop()]! : p;
    if (param.in === "header" && param.example !== undefined) out[param.name] = String(param.example);
  }
  return out;
}

/**
 * A concrete path for a template: ids that exist nowhere (the body is validated before the
 * lookup), or the example's own `id` where the body must repeat the path id (rotate-secret).
 */
const concrete = (template: string, example: { id?: unknown }) =>
  template.replace(/\{[^}]+\}/g, typeof example?.id === "string" ? example.id : "0193a6f2c1d87c4e9b1a2f3e4d5c6b7a");
const OPERATOR_TOKEN = "operator-token-of-the-examples-test";

async function setup(): Promise<{ h: Harness; doc: Doc; key: string }> {
  const h = createHarness({ testClock: true, operatorToken: OPERATOR_TOKEN });
  const a = await h.seedAccount();
  const doc = (await h.call("GET", "/docs/json")).body as Doc;
  return { h, doc, key: a.testKey };
}

describe("the Create a Pix charge sample", () => {
  for (const path of ["/v1/pix/charges", "/v1/charges"]) {
    test(`POST ${path} sent like the reference's curl sample creates a pending charge`, async () => {
      const { h, doc, key } = await setup();
      const op = doc.paths[path]!.post;
      const media = op.requestBody.content["application/json"];
      const headers = sampleHeaders(doc, op);
      expect(Object.keys(headers)).toEqual(["Idempotency-Key"]);
      const r = await h.call("POST", path, { key, headers, body: media.example });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        object: "charge",
        amount: media.example.amount,
        status: "pending",
        payment_method: "pix",
      });
      expect(r.body.pix.br_code).toStartWith("000201");
      // Sending the sample again replays it (the documented Idempotency-Key behaviour).
      const again = await h.call("POST", path, { key, headers, body: media.example });
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body.id).toBe(r.body.id);
    });
  }

  test("without the Idempotency-Key header the create answers 400 idempotency_key_missing, as documented", async () => {
    const { h, doc, key } = await setup();
    const example = doc.paths["/v1/pix/charges"]!.post.requestBody.content["application/json"].example;
    const r = await h.call("POST", "/v1/pix/charges", { key, body: example });
    expect([r.status, r.body.error.code]).toEqual([400, "idempotency_key_missing"]);
  });
});

describe("every request example", () => {
  test("passes the route's own body schema", async () => {
    const { h, doc } = await setup();
    const routes = h.app.routes as { method: string; path: string; hooks: { body?: TSchema } }[];
    const failures: string[] = [];
    let checked = 0;
    for (const [template, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries<any>(ops)) {
        const example = op.requestBody?.content?.["application/json"]?.example;
        if (example === undefined) continue;
        const route = routes.find(
          (r) => r.method.toLowerCase() === method && r.path.replace(/:([^/]+)/g, "{$1}") === template,
        );
        if (!route?.hooks.body) {
          failures.push(`${method} ${template}: no route body schema`);
          continue;
        }
        checked++;
        if (!Value.Check(route.hooks.body, example))
          failures.push(
            `${method} ${template}: ${[...Value.Errors(route.hooks.body, example)].map((e) => `${e.path} ${e.message}`).join("; ")}`,
          );
      }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  test("passes the route's validation over HTTP (no 400/413/415/422 from the body)", async () => {
    const { h, doc, key } = await setup();
    const login = await h.seedAccount({ email: "owner@example.com", password: "correct horse battery staple" });
    const token = (await h.call("POST", "/v1/auth/login", { body: { email: login.email, password: login.password } }))
      .body.access_token;
    const refused: string[] = [];
    for (const [template, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries<any>(ops)) {
        const example = op.requestBody?.content?.["application/json"]?.example;
        if (example === undefined) continue;
        const auth = Object.keys(op.security?.[0] ?? {})[0];
        const creds =
          auth === "apikey"
            ? { key }
            : auth === "bearer"
              ? { bearer: token }
              : auth === "operator"
                ? { bearer: OPERATOR_TOKEN }
                : {};
        const r = await h.call(method.toUpperCase(), concrete(template, example), {
          ...creds,
          headers: sampleHeaders(doc, op),
          body: example,
        });
        if ([400, 413, 415, 422].includes(r.status))
          refused.push(`${method} ${template}: ${r.status} ${JSON.stringify(r.body.error)}`);
      }
    expect(refused).toEqual([]);
  });
});
