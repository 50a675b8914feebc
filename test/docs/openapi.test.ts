/**
 * The served OpenAPI document is enough to integrate from (issue 13 section 2): every operation
 * documents its answers with closed schemas and examples, headers and security are declared,
 * every mounted route is listed, and the drift check of the harness really fails on drift.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { createHarness } from "../support/harness";
import { DocChecker, type OpenApiDoc } from "../support/openapi-check";
import { ChargeSchema } from "../../src/domain/charges/views";

const METHODS = ["get", "post", "put", "patch", "delete"];

async function servedDoc(config: Parameters<typeof createHarness>[0] = {}) {
  const h = createHarness(config);
  const r = await h.call("GET", "/docs/json");
  expect(r.status).toBe(200);
  // Loosely typed on purpose: the tests walk arbitrary parts of the document.
  return { h, doc: r.body as any };
}

const operations = (doc: { paths: Record<string, Record<string, any>> }) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ path, method, op })),
  );

const resolve = (doc: { components: Record<string, any> }, node: any) => {
  const ref: string | undefined = node?.$ref;
  if (!ref) return node;
  const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref)!;
  return doc.components[kind!][name!];
};

describe("every operation documents its answers", () => {
  test("each has a success answer and only error statuses that answer the one ErrorEnvelope", async () => {
    const { doc } = await servedDoc();
    const problems: string[] = [];
    for (const { path, method, op } of operations(doc)) {
      const statuses = Object.keys(op.responses ?? {});
      if (!statuses.some((s) => /^[23]/.test(s))) problems.push(`${method} ${path}: no success answer`);
      // The harness's drift check skips operations without it as test-only routes (test/support/openapi-check.ts).
      if (!statuses.includes("500")) problems.push(`${method} ${path}: no 500 (not documented through op())`);
      for (const s of statuses.filter((s) => /^[45]/.test(s))) {
        const media = op.responses[s].content?.["application/json"];
        // The checkout page's 404 is an HTML page by design (extensions.md "Public pages").
        if (path.endsWith("{raw_id}") && method === "get" && s === "404") continue;
        if (media?.schema?.$ref !== "#/components/schemas/ErrorEnvelope")
          problems.push(`${method} ${path} ${s}: not the ErrorEnvelope`);
      }
    }
    expect(problems).toEqual([]);
    expect(operations(doc).length).toBeGreaterThanOrEqual(72);
  });

  test("every JSON answer has a schema and an example that validates against it", async () => {
    const { doc } = await servedDoc();
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const fix = (s: unknown) => JSON.parse(JSON.stringify(s).replaceAll('"#/components/schemas/', '"doc#/$defs/'));
    ajv.addSchema(fix({ $id: "doc", $defs: doc.components.schemas }));
    const problems: string[] = [];
    const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
    for (const { path, method, op } of operations(doc))
      for (const [status, r] of Object.entries<any>(op.responses)) {
        const media = r.content?.["application/json"];
        if (!media) continue;
        if (!media.schema) problems.push(`${method} ${path} ${status}: no schema`);
        else if (media.example === undefined) problems.push(`${method} ${path} ${status}: no example`);
        else {
          const text = JSON.stringify(media.schema);
          let validate = compiled.get(text);
          if (!validate) compiled.set(text, (validate = ajv.compile(fix(media.schema))));
          if (!validate(media.example))
            problems.push(`${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    expect(problems).toEqual([]);
  });

  test("response objects are closed allowlists whose non-optional keys are required", async () => {
    const { doc } = await servedDoc();
    const open: string[] = [];
    const walk = (node: any, where: string) => {
      if (!node || typeof node !== "object") return;
      if (node.type === "object" && node.properties && node.additionalProperties !== false) open.push(where);
      for (const [k, v] of Object.entries(node)) if (k !== "examples" && k !== "example") walk(v, `${where}.${k}`);
    };
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
      walk(schema, name);
      // Every named view requires its keys (only a few are really optional).
      if (!Array.isArray(schema.required) || schema.required.length === 0) open.push(`${name} (nothing required)`);
    }
    expect(open).toEqual([]);
    const charge = doc.components.schemas.Charge;
    expect(charge.required).toEqual([
      "id",
      "object",
      "amount",
      "currency",
      "status",
      "payment_method",
      "customer",
      "pix",
      "checkout_url",
      "settlement",
      "metadata",
      "created_at",
    ]);
  });

  test("every operation that can be sent a body documents the body errors 400, 408, 413 and 415", async () => {
    // The global parser reads any body (src/app.ts onParse), so even a route without a body schema
    // answers 415 to a look-alike media type and 408 to a body that trickles in.
    const { doc } = await servedDoc({ operatorToken: "docs-test", testClock: true });
    const missing = operations(doc)
      .filter(({ method }) => method !== "get")
      .flatMap(({ path, method, op }) =>
        ["400", "408", "413", "415"]
          .filter((s) => !op.responses?.[s])
          .map((s) => `${method.toUpperCase()} ${path}: ${s}`),
      );
    expect(missing).toEqual([]);
  });

  test("the error envelope is one shared component with every code of the table", async () => {
    const { doc } = await servedDoc();
    const env = doc.components.schemas.ErrorEnvelope;
    expect(env.required).toEqual(["error", "request_id"]);
    expect(env.properties.error.required).toEqual(["type", "code", "message"]);
    expect(Object.keys(env.properties.error.properties).sort()).toEqual([
      "code",
      "details",
      "message",
      "param",
      "type",
    ]);
    const { ERROR_CODES } = await import("../../src/http/errors");
    expect(env.properties.error.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
  });
});

describe("headers, security and coverage", () => {
  test("the charge creations declare a required Idempotency-Key (8-128) and answer Idempotent-Replayed; 409 carries Retry-After", async () => {
    const { doc } = await servedDoc();
    for (const path of ["/v1/charges", "/v1/pix/charges"]) {
      const op = doc.paths[path]!.post;
      const params = op.parameters.map((p: any) => resolve(doc, p));
      const key = params.find((p: any) => p.name === "Idempotency-Key");
      expect(key).toMatchObject({
        in: "header",
        required: true,
        schema: { type: "string", minLength: 8, maxLength: 128 },
      });
      expect(params.find((p: any) => p.name === "X-Request-Id")).toMatchObject({ in: "header", required: false });
      expect(Object.keys(op.responses["201"].headers).sort()).toEqual([
        "Idempotent-Replayed",
        "X-RateLimit-Limit-Minute",
        "X-RateLimit-Remaining-Minute",
        "X-Request-Id",
      ]);
      expect(Object.keys(op.responses["409"].headers)).toContain("Retry-After");
      expect(Object.keys(op.responses["429"].headers)).toContain("Retry-After");
    }
    // A read takes no Idempotency-Key.
    const get = doc.paths["/v1/charges/{id}"]!.get;
    expect(get.parameters.map((p: any) => resolve(doc, p).name)).toEqual(["id", "X-Request-Id"]);
  });

  test("every answer declares X-Request-Id; apikey operations declare the rate-limit headers", async () => {
    const { doc } = await servedDoc();
    const missing: string[] = [];
    for (const { path, method, op } of operations(doc))
      for (const [status, r] of Object.entries<any>(op.responses)) {
        const h = Object.keys(r.headers ?? {});
        if (!h.includes("X-Request-Id")) missing.push(`${method} ${path} ${status}: X-Request-Id`);
        if (op.security?.[0]?.apikey && !h.includes("X-RateLimit-Remaining-Minute"))
          missing.push(`${method} ${path} ${status}: rate limit`);
      }
    expect(missing).toEqual([]);
    expect(Object.keys(doc.components.headers).sort()).toEqual([
      "Idempotent-Replayed",
      "Retry-After",
      "X-RateLimit-Limit-Minute",
      "X-RateLimit-Remaining-Minute",
      "X-Request-Id",
    ]);
  });

  test("every mounted route is listed, /v1/pix/jwks.json included; only the reference's own pages are hidden", async () => {
    const { h, doc } = await servedDoc({ operatorToken: "op-token-for-docs-test", testClock: true });
    const listed = new Set(operations(doc).map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    const mounted = (h.app.routes as { method: string; path: string }[])
      .filter((r) => METHODS.includes(r.method.toLowerCase()))
      .map((r) => `${r.method.toUpperCase()} ${r.path.replace(/:([^/]+)/g, "{$1}")}`);
    const hidden = mounted.filter((r) => !listed.has(r));
    expect(hidden.sort()).toEqual([
      "GET /dashboard",
      "GET /dashboard/assets/{name}",
      "GET /docs",
      "GET /docs/assets/scalar.js",
      "GET /docs/json",
    ]);
    expect(listed.has("GET /v1/pix/jwks.json")).toBe(true);
  });

  test("security: apikey, bearer, operator and the dashboard session schemes exist and every operation names its own (or none when public)", async () => {
    const { doc } = await servedDoc();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["apikey", "bearer", "operator", "session"]);
    expect(doc.components.securitySchemes.session).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "cofre_session",
    });
    const shapes = [[], [{ apikey: [] }, { session: [] }], [{ bearer: [] }, { session: [] }], [{ operator: [] }]].map(
      (s) => JSON.stringify(s),
    );
    const bad = operations(doc).filter(({ op }) => !shapes.includes(JSON.stringify(op.security)));
    expect(bad).toEqual([]);
    expect(doc.paths["/v1/pix/jwks.json"]!.get.security).toEqual([]);
    expect(doc.paths["/v1/payments/{id}/refund"]!.post.security).toEqual([{ apikey: [] }, { session: [] }]);
    expect(doc.paths["/v1/operator/accounts/{account_id}/pix-provider"]!.put.security).toEqual([{ operator: [] }]);
  });

  test("request schemas carry the runtime limits and units", async () => {
    const { doc } = await servedDoc();
    const charge = doc.paths["/v1/pix/charges"]!.post.requestBody.content["application/json"].schema;
    expect(charge.additionalProperties).toBe(false);
    expect(charge.properties.amount).toMatchObject({ type: "integer", minimum: 1, maximum: 1_000_000_000_000 });
    expect(charge.properties.amount.description).toContain("Centavos");
    expect(charge.properties.expires_in.description).toContain("Seconds");
    const refund = doc.paths["/v1/payments/{id}/refund"]!.post.requestBody.content["application/json"].schema;
    expect(refund.properties.idempotencyKey).toMatchObject({ minLength: 8, maxLength: 128 });
  });
});

describe("the drift check of the harness", () => {
  async function realCharge() {
    const h = createHarness();
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      body: { amount: 1500 },
      headers: { "Idempotency-Key": "drift-check-1" },
    });
    expect(r.status).toBe(201);
    const doc = (await h.call("GET", "/docs/json")).body as OpenApiDoc;
    return { r, doc };
  }
  const answer = (body: unknown, status = 201) => ({
    method: "POST",
    path: "/v1/pix/charges",
    status,
    contentType: "application/json",
    body,
    text: JSON.stringify(body),
  });

  test("accepts the real answer", async () => {
    const { r, doc } = await realCharge();
    expect(new DocChecker(doc).problems(answer(r.body))).toEqual([]);
  });

  test("fails a view that gained a field its schema lacks", async () => {
    const { r, doc } = await realCharge();
    const problems = new DocChecker(doc).problems(answer({ ...r.body, internal_fee: 12 }));
    expect(problems.join("\n")).toContain("must NOT have additional properties (internal_fee)");
  });

  test("fails a schema that lost a field the view sends", async () => {
    const { r, doc } = await realCharge();
    const planted = structuredClone(doc) as any;
    delete planted.components.schemas.Charge.properties.checkout_url;
    planted.components.schemas.Charge.required = planted.components.schemas.Charge.required.filter(
      (k: string) => k !== "checkout_url",
    );
    expect(new DocChecker(planted).problems(answer(r.body)).join("\n")).toContain("(checkout_url)");
  });

  test("fails a view that dropped a required field", async () => {
    const { r, doc } = await realCharge();
    const { created_at: _, ...rest } = r.body;
    expect(new DocChecker(doc).problems(answer(rest)).join("\n")).toContain("must have required property 'created_at'");
  });

  test("fails an undocumented status and an undocumented content type", async () => {
    const { r, doc } = await realCharge();
    const c = new DocChecker(doc);
    expect(c.problems(answer(r.body, 200)).join("\n")).toContain("status 200 is not documented");
    expect(c.problems({ ...answer(r.body), contentType: "text/plain", body: "x", text: "x" }).join("\n")).toContain(
      "content type text/plain is not documented",
    );
  });

  test("a harness call fails when the schema beside the view misses a field the view sends", async () => {
    // Plant the drift in the real ChargeSchema before a harness builds its document (a checkout
    // base of its own, so no other harness shares this document), and restore it afterwards.
    const saved = structuredClone({ prop: ChargeSchema.properties.checkout_url, required: ChargeSchema.required });
    delete (ChargeSchema.properties as Record<string, unknown>).checkout_url;
    (ChargeSchema as { required?: string[] }).required = ChargeSchema.required!.filter((k) => k !== "checkout_url");
    try {
      const h = createHarness({ checkoutUrlBase: "http://localhost:3000/drift" });
      const a = await h.seedAccount();
      await expect(
        h.call("POST", "/v1/pix/charges", {
          key: a.testKey,
          body: { amount: 1500 },
          headers: { "Idempotency-Key": "drift-check-2" },
        }),
      ).rejects.toThrow("must NOT have additional properties (checkout_url)");
    } finally {
      (ChargeSchema.properties as Record<string, unknown>).checkout_url = saved.prop;
      (ChargeSchema as { required?: string[] }).required = saved.required;
    }
    // Restored: a fresh harness with the same settings passes.
    const h = createHarness({ checkoutUrlBase: "http://localhost:3000/drift2" });
    const a = await h.seedAccount();
    expect(
      (
        await h.call("POST", "/v1/pix/charges", {
          key: a.testKey,
          body: { amount: 1500 },
          headers: { "Idempotency-Key": "drift-check-3" },
        })
      ).status,
    ).toBe(201);
  });
});
