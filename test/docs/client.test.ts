/**
 * A typed client generated from GET /docs/json is enough to integrate: openapi-typescript makes
 * the types, a small openapi-fetch program using them typechecks (`bunx tsc`, strict), and it
 * creates, pays (sandbox helper) and refunds a charge against a real server on 127.0.0.1. A
 * program that misuses the API (no Idempotency-Key, a string amount) must fail to typecheck.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHarness, type Harness } from "../support/harness";

const ROOT = join(import.meta.dir, "../..");
// Outside the work tree (the project's typecheck must never see it), with the project's
// node_modules linked in so `openapi-fetch` resolves.
const dir = mkdtempSync(join(tmpdir(), "cofre-client-"));
symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
let h: Harness;
let server: ReturnType<typeof Bun.serve> | undefined;

const PROGRAM = `
import createClient from "openapi-fetch";
import type { paths, components } from "./schema";

type Charge = components["schemas"]["Charge"];
type Refund = components["schemas"]["Refund"];

/** Creates a Pix charge, pays it in the sandbox and refunds part of it. */
export async function run(baseUrl: string, apikey: string): Promise<{ created: Charge; paid: Charge; refund: Refund; replayed: string | null }> {
  const client = createClient<paths>({ baseUrl, headers: { apikey } });
  const params = { header: { "Idempotency-Key": "typed-client-0001" } };
  const first = await client.POST("/v1/pix/charges", { params, body: { amount: 2500, description: "Pedido 77", metadata: { order: "77" } } });
  if (!first.data) throw new Error("create failed: " + JSON.stringify(first.error));
  const again = await client.POST("/v1/pix/charges", { params, body: { amount: 2500, description: "Pedido 77", metadata: { order: "77" } } });
  const created: Charge = first.data;
  const paid = await client.POST("/v1/test_helpers/charges/{id}/pay", { params: { path: { id: created.id } }, body: {} });
  if (!paid.data) throw new Error("pay failed: " + JSON.stringify(paid.error));
  const refund = await client.POST("/v1/payments/{id}/refund", {
    params: { path: { id: created.id } },
    body: { idempotencyKey: "typed-client-refund-1", amount: 1000, reason: "partial" },
  });
  if (!refund.data) throw new Error("refund failed: " + (refund.error ? refund.error.error.code : "no body"));
  const cents: number = refund.data.amount;
  void cents;
  return { created, paid: paid.data, refund: refund.data, replayed: again.response.headers.get("idempotent-replayed") };
}
`;

const MISUSE = `
import createClient from "openapi-fetch";
import type { paths } from "./schema";

const client = createClient<paths>({ baseUrl: "http://127.0.0.1:1" });
export const noKey = client.POST("/v1/pix/charges", { body: { amount: 2500 } });
export const stringAmount = client.POST("/v1/pix/charges", { params: { header: { "Idempotency-Key": "k-12345678" } }, body: { amount: "2500" } });
export const unknownField = client.GET("/v1/charges/{id}", { params: { path: { id: "ch_x" } } }).then((r) => r.data?.fee);
`;

async function sh(cmd: string[]): Promise<{ code: number; out: string }> {
  const p = Bun.spawn(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code: await p.exited, out: out + err };
}

beforeAll(async () => {
  h = createHarness();
  const doc = await h.call("GET", "/docs/json");
  await Bun.write(join(dir, "doc.json"), JSON.stringify(doc.body));
  const gen = await sh([
    "bun",
    "--preload",
    "./test/docs/support/typescript5.ts",
    "test/docs/support/gen-client-types.ts",
    join(dir, "doc.json"),
    join(dir, "schema.d.ts"),
  ]);
  if (gen.code !== 0) throw new Error(`openapi-typescript failed:\n${gen.out}`);
  await Bun.write(join(dir, "client.ts"), PROGRAM);
  await Bun.write(join(dir, "misuse.ts"), MISUSE);
  await Bun.write(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ESNext",
        module: "ESNext",
        moduleResolution: "bundler",
        lib: ["ESNext", "DOM"],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      files: ["client.ts", "misuse.ts", "schema.d.ts"],
    }),
  );
}, 60_000);

afterAll(() => {
  server?.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

describe("a client generated from /docs/json", () => {
  test("typechecks the integration program and refuses a misuse of the API", async () => {
    const tsc = await sh(["bunx", "tsc", "-p", join(dir, "tsconfig.json")]);
    const lines = tsc.out.split("\n").filter((l) => /error TS/.test(l));
    expect(lines.filter((l) => l.includes("client.ts"))).toEqual([]);
    const misuse = lines.filter((l) => l.includes("misuse.ts"));
    // One error per misuse line: the missing header, the string amount, the undocumented field.
    expect(
      misuse.map((l) => Number(/misuse\.ts\((\d+),/.exec(l)?.[1])).filter((n, i, a) => a.indexOf(n) === i),
    ).toEqual([6, 7, 8]);
    expect(tsc.code).not.toBe(0);
  }, 60_000);

  test("creates, pays and refunds a charge against a real server", async () => {
    const a = await h.seedAccount();
    server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => h.app.handle(req) });
    const { run } = await import(join(dir, "client.ts"));
    const out = await run(`http://127.0.0.1:${server.port}`, a.testKey);
    expect(out.created).toMatchObject({ object: "charge", amount: 2500, status: "pending", metadata: { order: "77" } });
    expect(out.replayed).toBe("true");
    expect(out.paid).toMatchObject({ id: out.created.id, status: "paid" });
    expect(out.refund).toMatchObject({
      amount: 1000,
      currency: "BRL",
      status: "PENDING",
      transactionId: out.created.id.slice(3),
    });
    // The server agrees: one refund of 1000 on the transaction.
    const refunds = await h.call("GET", `/v1/payments/${out.created.id}/refunds`, { key: a.testKey });
    expect(refunds.body.data.map((r: { id: string; amount: number }) => [r.id, r.amount])).toEqual([
      [out.refund.id, 1000],
    ]);
  }, 60_000);
});
