/**
 * Foundation test fixtures: a harness whose app carries a few test-only routes (a throwing
 * route, a strict amount body, an idempotent write whose completion the test controls).
 */
import { expect } from "bun:test";
import { idempotent } from "../../src/http/idempotent";
import { apiKeyAuth } from "../../src/http/plugins/api-key-auth";
import { Amount, StrictObject, Str } from "../../src/http/schemas";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { createHarness, type Harness } from "../support/harness";
import type { Config } from "../../src/config";
import type { Logger } from "../../src/lib/logger";

export interface FoundationHarness extends Harness {
  /** Number of times the idempotent test route ran its side effect. */
  effects: () => number;
  /** Makes the next idempotent write wait until `release()`; `entered` resolves once it waits. */
  holdNextWrite: () => { entered: Promise<void>; release: () => void };
}

/**
 * createHarness() plus `/boom` (throws), `GET /t/items/:id`, `POST /t/amount` (strict Amount) and
 * `POST /t/pay` (idempotent, apikey).
 */
export function foundationHarness(config: Partial<Config> = {}, logger?: Logger): FoundationHarness {
  const h = createHarness(config, undefined, logger);
  let effects = 0;
  let gate: Promise<void> | null = null;
  let onEnter: (() => void) | null = null;
  const deps = h.deps;
  const testRoutes = new Elysia()
    .get("/boom", () => {
      throw new Error("secret internal detail: SELECT * FROM api_keys at /work/main/src/x.ts:1");
    })
    .get("/t/items/:id", ({ params }) => ({ id: params.id }))
    .get("/t/bad-response", () => ({ wrongField: "secret-shape" }) as never, {
      response: { 200: Type.Object({ id: Type.String() }) },
    })
    .post("/t/amount", ({ body }) => ({ ok: true, amount: body.amount }), {
      body: StrictObject({ amount: Amount(), note: Type.Optional(Str({ maxLength: 5 })) }),
    })
    .use(apiKeyAuth(deps))
    .post(
      "/t/pay",
      (ctx) =>
        idempotent(deps, ctx, "POST /t/pay", async (claim) => {
          if (gate) {
            const g = gate;
            gate = null;
            onEnter?.();
            await g;
          }
          if (ctx.body.amount === 13) throw new Error("unlucky");
          return deps.store.tx(async (uow) => {
            effects++;
            const body = { id: `pay_${effects}`, amount: ctx.body.amount };
            await deps.idempotency.complete(uow, claim, 201, body);
            return { status: 201, body };
          });
        }),
      { body: StrictObject({ amount: Amount() }) },
    );
  h.app.use(testRoutes);
  return {
    ...h,
    effects: () => effects,
    holdNextWrite: () => {
      let release!: () => void;
      gate = new Promise<void>((r) => (release = r));
      const entered = new Promise<void>((r) => (onEnter = r));
      return { entered, release };
    },
  };
}

/** Exact sorted keys of an object, for field-set assertions. */
export const keys = (o: object) => Object.keys(o).sort();

/** Asserts the interface.md error envelope shape and returns the `error` object. */
export function expectEnvelope(
  r: { status: number; headers: Headers; body: any },
  status: number,
  type: string,
  code: string,
): any {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toStartWith("application/json");
  expect(keys(r.body)).toEqual(["error", "request_id"]);
  expect(r.body.error.type).toBe(type);
  expect(r.body.error.code).toBe(code);
  expect(typeof r.body.error.message).toBe("string");
  expect(r.body.error.message.length).toBeGreaterThan(0);
  const rid = r.headers.get("x-request-id");
  expect(rid).toBeTruthy();
  expect(r.body.request_id).toBe(rid!);
  for (const k of Object.keys(r.body.error)) expect(["type", "code", "message", "param", "details"]).toContain(k);
  return r.body.error;
}
