/**
 * psp-sim errors as the BCB API Pix v2 returns them: RFC 7807 `Problema` (`type`, `title`,
 * `status`, `detail`, `violacoes[]` of `{razao, propriedade, valor}`), `type` =
 * `https://pix.bcb.gov.br/api/v2/error/<Nome>` (OpenAPI 2.9.0, "Tratamento de erros").
 * Control routes (`/_sim/...`) use the same shape; their own names live under `urn:psp-sim:error:`.
 */

export interface Violacao {
  razao: string;
  propriedade?: string;
  valor?: string;
}

/** Error name -> [HTTP status, title], from the standard's error catalogue. */
const CATALOG = {
  RequisicaoInvalida: [400, "Requisição inválida."],
  AcessoNegado: [403, "Acesso Negado"],
  NaoEncontrado: [404, "Não Encontrado"],
  ErroInternoDoServidor: [500, "Erro Interno do Servidor"],
  ServicoIndisponivel: [503, "Serviço Indisponível"],
  IndisponibilidadePorTempoEsgotado: [504, "Indisponibilidade por tempo esgotado"],
  CobNaoEncontrado: [404, "Cobrança não encontrada."],
  CobOperacaoInvalida: [400, "Cobrança inválida."],
  CobConsultaInvalida: [400, "Consulta de cobrança inválida."],
  PixNaoEncontrado: [404, "Pix não encontrado."],
  PixDevolucaoNaoEncontrada: [404, "Devolução não encontrada."],
  PixConsultaInvalida: [400, "Consulta de Pix inválida."],
  PixDevolucaoInvalida: [400, "Devolução inválida."],
  WebhookOperacaoInvalida: [400, "Webhook inválido."],
  WebhookNaoEncontrado: [404, "Webhook não encontrado."],
  WebhookConsultaInvalida: [400, "Consulta de webhooks inválida."],
} as const satisfies Record<string, readonly [number, string]>;

export type ProblemName = keyof typeof CATALOG;

/** Control-route errors (not part of the standard). */
const SIM_CATALOG = {
  EstadoInvalido: [409, "Estado inválido para a operação."],
  ControleInvalido: [400, "Requisição de controle inválida."],
} as const satisfies Record<string, readonly [number, string]>;

export type SimProblemName = keyof typeof SIM_CATALOG;

/** The `Problema` body (OpenAPI `components/schemas/Problema`). */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  violacoes?: Violacao[];
}

/** Thrown by handlers; the server turns it into an `application/problem+json` response. */
export class PixProblem extends Error {
  /** Extra response headers (e.g. `WWW-Authenticate` on 401). */
  headers?: Record<string, string>;
  constructor(readonly body: ProblemBody) {
    super(body.detail ?? body.title);
  }
  get status(): number {
    return this.body.status;
  }
}

/** A standard error: `problem("CobNaoEncontrado", "...")`, status and title from the catalogue. */
export function problem(name: ProblemName, detail?: string, violacoes?: Violacao[]): PixProblem {
  const [status, title] = CATALOG[name];
  return new PixProblem({
    type: `https://pix.bcb.gov.br/api/v2/error/${name}`,
    title,
    status,
    ...(detail ? { detail } : {}),
    ...(violacoes?.length ? { violacoes } : {}),
  });
}

/** A control-route error (`urn:psp-sim:error:<Nome>`). */
export function simProblem(name: SimProblemName, detail: string): PixProblem {
  const [status, title] = SIM_CATALOG[name];
  return new PixProblem({ type: `urn:psp-sim:error:${name}`, title, status, detail });
}

/** Collects violations; `throwIfAny(name, detail)` raises one problem listing all of them. */
export class Violations {
  readonly list: Violacao[] = [];
  add(propriedade: string, razao: string, valor?: unknown): void {
    this.list.push({
      razao,
      propriedade,
      ...(valor === undefined ? {} : { valor: typeof valor === "string" ? valor : JSON.stringify(valor) }),
    });
  }
  throwIfAny(name: ProblemName, detail: string): void {
    if (this.list.length) throw problem(name, detail, this.list);
  }
}
