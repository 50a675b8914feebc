/**
 * What every control route handler receives, and the lookups and body reader both control modules share (control.ts,
 * control-recon.ts).
 */
import type { Reply, SimEnv } from "./core";
import { isObject } from "./format";
import { problem, simProblem } from "./problems";

export interface ControlCtx {
  env: SimEnv;
  params: Record<string, string>;
  query: URLSearchParams;
  rawBody: string;
}

export type Handler = (ctx: ControlCtx) => Reply | Promise<Reply>;

/** The JSON object body (empty body = {}); fields outside `allowed` are a 400. */
export function body(ctx: ControlCtx, allowed: string[]): Record<string, unknown> {
  if (ctx.rawBody.trim() === "") return {};
  let v: unknown;
  try {
    v = JSON.parse(ctx.rawBody);
  } catch {
    throw simProblem("ControleInvalido", "body is not JSON");
  }
  if (!isObject(v)) throw simProblem("ControleInvalido", "body must be a JSON object");
  const unknown = Object.keys(v).filter((k) => !allowed.includes(k));
  if (unknown.length)
    throw simProblem(
      "ControleInvalido",
      `unknown field(s): ${unknown.join(", ")}; allowed: ${allowed.join(", ") || "none"}`,
    );
  return v;
}

/** The Pix named by the route's `e2eid`, or the PSP's 404 problem. */
export function findPix(ctx: ControlCtx) {
  const pix = ctx.env.store.pixByE2e(ctx.params.e2eid!);
  if (!pix) throw problem("PixNaoEncontrado", `Pix não encontrado para o e2eid ${ctx.params.e2eid}.`);
  return pix;
}

/** The send named by the route's `idEnvio` (`?client_id=` when several clients share it), or a problem. */
export function findSend(ctx: ControlCtx) {
  const id = ctx.params.idEnvio!;
  const clientId = ctx.query.get("client_id");
  const rows = ctx.env.store.sendsById(id).filter((r) => clientId === null || r.client_id === clientId);
  if (rows.length === 0) throw problem("NaoEncontrado", `Envio ${id} não encontrado.`);
  if (rows.length > 1) throw simProblem("ControleInvalido", `idEnvio ${id} exists at several clients; add ?client_id=`);
  return rows[0]!;
}
