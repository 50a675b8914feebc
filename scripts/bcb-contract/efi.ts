/**
 * The Efí part of the contract check (extensions.md "Pix send through a PSP: connection type
 * `efi`"): Efí publishes no OpenAPI of its send routes, so their schemas are written here from
 * research/money-out.md "Efí Pix send" (sources: efipay/sdk-node-apis-efi src/types/pix.ts and
 * constants/endpoints.ts, efipay/sdk-php-apis-efi Endpoints/Pix.php, dev.efipay.com.br
 * envio-pagamento-pix and webhooks). Nothing is copied from Efí. Checked like the BCB document:
 * the request Cofre's adapter sent (path parameters, JSON body) and the simulator's answer
 * (status declared, body against that status's schema); callbacks whose entries carry
 * `gnExtras.idEnvio` against the send-result callback. Where a source is silent the schema stays
 * open (no `additionalProperties: false`) so a real Efí answer would pass.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { Exchange } from "../../src/psp-sim/exchange-log";
import type { CheckReport, LoggedExchange, OperationCount, Violation } from "./check";

const VALOR = { type: "string", pattern: "^\\d{1,10}\\.\\d{2}$" };
const ID_ENVIO = { type: "string", pattern: "^[a-zA-Z0-9]{1,35}$" };
const E2E = { type: "string", pattern: "^[a-zA-Z0-9]{32}$" };
const CPF = { type: "string", pattern: "^\\d{11}$" };
const CNPJ = { type: "string", pattern: "^[0-9A-Z]{12}\\d{2}$" };
const CHAVE = { type: "string", minLength: 1, maxLength: 77 };
const DATE_TIME = { type: "string", format: "date-time" };
const STATUS = { type: "string", enum: ["EM_PROCESSAMENTO", "REALIZADO", "NAO_REALIZADO"] };
const ERRO = {
  type: "object",
  properties: { codigo: { type: "string" }, origem: { type: "string" }, motivo: { type: "string" } },
};
const GN_EXTRAS = { type: "object", required: ["idEnvio"], properties: { idEnvio: ID_ENVIO, erro: ERRO } };

/** `favorecido`: a key (with the holder's CPF or CNPJ) or a bank account. */
const FAVORECIDO = {
  oneOf: [
    {
      type: "object",
      required: ["chave"],
      additionalProperties: false,
      properties: { chave: CHAVE, cpf: CPF, cnpj: CNPJ },
      not: { required: ["cpf", "cnpj"] },
    },
    {
      type: "object",
      required: ["contaBanco"],
      additionalProperties: false,
      properties: {
        contaBanco: {
          type: "object",
          required: ["nome", "codigoBanco", "agencia", "conta", "tipoConta"],
          additionalProperties: false,
          properties: {
            nome: { type: "string", minLength: 1, maxLength: 200 },
            cpf: CPF,
            cnpj: CNPJ,
            codigoBanco: { type: "string", pattern: "^\\d{8}$" },
            agencia: { type: "string", pattern: "^\\d{1,4}$" },
            conta: { type: "string", pattern: "^\\d{1,20}$" },
            tipoConta: { type: "string", enum: ["cacc", "svgs"] },
          },
          oneOf: [{ required: ["cpf"] }, { required: ["cnpj"] }],
        },
      },
    },
  ],
};

/** `PUT /v3/gn/pix/{idEnvio}` body. */
const SEND_REQUEST = {
  type: "object",
  required: ["valor", "pagador", "favorecido"],
  additionalProperties: false,
  properties: {
    valor: VALOR,
    pagador: {
      type: "object",
      required: ["chave"],
      additionalProperties: false,
      properties: { chave: CHAVE, infoPagador: { type: "string", maxLength: 140 } },
    },
    favorecido: FAVORECIDO,
  },
};

/** 201 of the send: `e2eId` (docs) or `endToEndId` (SDK types). */
const SEND_CREATED = {
  type: "object",
  required: ["idEnvio", "valor", "horario", "status"],
  properties: {
    idEnvio: ID_ENVIO,
    e2eId: E2E,
    endToEndId: E2E,
    valor: VALOR,
    horario: { type: "object", required: ["solicitacao"], properties: { solicitacao: DATE_TIME } },
    status: STATUS,
  },
  anyOf: [{ required: ["e2eId"] }, { required: ["endToEndId"] }],
};

/** A send as the GETs answer it. */
const SEND_DETAIL = {
  type: "object",
  required: ["valor", "horario", "status"],
  properties: {
    idEnvio: ID_ENVIO,
    e2eId: E2E,
    endToEndId: E2E,
    valor: VALOR,
    chave: CHAVE,
    status: STATUS,
    horario: {
      type: "object",
      required: ["solicitacao"],
      properties: { solicitacao: DATE_TIME, liquidacao: DATE_TIME },
    },
    favorecido: { type: "object" },
    devolucoes: {
      type: "array",
      items: { type: "object", properties: { rtrId: E2E, valor: VALOR, horario: { type: "object" } } },
    },
    gnExtras: GN_EXTRAS,
  },
  anyOf: [{ required: ["e2eId"] }, { required: ["endToEndId"] }],
};

/** Efí's error answer `{nome, mensagem}` (names from the sources; `nome` open to others). */
const EFI_ERROR = {
  type: "object",
  required: ["nome", "mensagem"],
  properties: { nome: { type: "string", minLength: 1 }, mensagem: { type: "string" } },
};
/** OAuth failures of any route (bearer missing, expired, scope): an object, shape left to the gateway. */
const AUTH_ERROR = { type: "object" };

/** The send-result callback: `POST {webhookUrl}/pix`. */
const SEND_CALLBACK = {
  type: "object",
  required: ["pix"],
  properties: {
    pix: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["endToEndId", "tipo", "status", "valor", "horario", "gnExtras"],
        properties: {
          endToEndId: E2E,
          chave: CHAVE,
          tipo: { const: "SOLICITACAO" },
          status: { enum: ["REALIZADO", "NAO_REALIZADO"] },
          valor: VALOR,
          horario: DATE_TIME,
          gnExtras: GN_EXTRAS,
        },
      },
    },
  },
};

interface EfiOperation {
  name: string;
  method: string;
  regex: RegExp;
  params: Record<string, object>;
  request: object | null;
  responses: Record<string, object | null>;
}

const op = (
  method: string,
  template: string,
  params: Record<string, object>,
  request: object | null,
  responses: Record<string, object | null>,
): EfiOperation => ({
  name: `${method} ${template}`,
  method,
  regex: new RegExp(`^${template.replace(/\{(\w+)\}/g, "(?<$1>[^/]+)")}/?$`),
  params,
  request,
  responses,
});

/** The Efí operations Cofre calls (and psp-sim serves), with their declared statuses. */
export const EFI_OPERATIONS: EfiOperation[] = [
  op("GET", "/v2/gn/pix/enviados/id-envio/{idEnvio}", { idEnvio: ID_ENVIO }, null, {
    200: SEND_DETAIL,
    401: AUTH_ERROR,
    403: AUTH_ERROR,
    404: EFI_ERROR,
    500: EFI_ERROR,
    503: null,
    504: null,
  }),
  op("PUT", "/v3/gn/pix/{idEnvio}", { idEnvio: ID_ENVIO }, SEND_REQUEST, {
    201: SEND_CREATED,
    400: EFI_ERROR,
    401: AUTH_ERROR,
    403: AUTH_ERROR,
    409: EFI_ERROR,
    422: EFI_ERROR,
    500: null,
    503: null,
    504: null,
  }),
  op("GET", "/v2/gn/pix/enviados/{e2eId}", { e2eId: E2E }, null, {
    200: SEND_DETAIL,
    401: AUTH_ERROR,
    403: AUTH_ERROR,
    404: EFI_ERROR,
    500: null,
    503: null,
    504: null,
  }),
  op("GET", "/v2/gn/saldo", {}, null, {
    200: { type: "object", required: ["saldo"], properties: { saldo: VALOR } },
    401: AUTH_ERROR,
    403: AUTH_ERROR,
  }),
];

/** True for an exchange the Efí schemas check: a call to an Efí route, or a callback about a send. */
export function isEfiExchange(e: Exchange): boolean {
  if (e.kind === "callback") {
    const list = (e.request.body as { pix?: unknown } | null)?.pix;
    return Array.isArray(list) && list.some((p) => !!(p as { gnExtras?: unknown } | null)?.gnExtras);
  }
  const path = e.request.path ?? new URL(e.request.url ?? "http://x/").pathname;
  return e.kind === "api" && /^\/v[23]\/gn\//.test(path);
}

function describe(errors: ErrorObject[] | null | undefined, where: string): string[] {
  return (errors ?? []).map((e) => `${where}${e.instancePath}: ${e.message}`);
}

/** Checks Efí exchanges against the schemas above; the report has the BCB check's shape. */
export class EfiChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<object, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
  }

  private validate(schema: object, value: unknown, where: string): string[] {
    let v = this.compiled.get(schema);
    if (!v) this.compiled.set(schema, (v = this.ajv.compile(schema)));
    return v(value) ? [] : describe(v.errors, where);
  }

  check(list: LoggedExchange[]): CheckReport {
    const counts = new Map<string, OperationCount>();
    const violations: Violation[] = [];
    let unanswered = 0;
    const count = (name: string) => {
      let c = counts.get(name);
      if (!c) counts.set(name, (c = { operation: name, requests: 0, responses: 0, violations: 0 }));
      return c;
    };
    for (const { source, line, exchange: e } of list) {
      const url = new URL(e.request.url ?? `http://x${e.request.path ?? "/"}`);
      const method = (e.request.method ?? "GET").toUpperCase();
      const summary = `${method} ${url.pathname} -> ${e.response.status ?? "?"}`;
      const flag = (name: string, side: Violation["side"], messages: string[]) => {
        for (const message of messages)
          violations.push({ source, line, operation: name, side, message, exchange: summary });
        count(name).violations += messages.length;
      };
      if (e.kind === "callback") {
        const name = "POST {webhookUrl}/pix (Efí send result)";
        count(name).requests++;
        flag(
          name,
          "request",
          method === "POST" && url.pathname.endsWith("/pix")
            ? this.validate(SEND_CALLBACK, e.request.body, "callback body")
            : [`not POST {webhookUrl}/pix`],
        );
        if (!e.response.status) unanswered++;
        else count(name).responses++;
        continue;
      }
      const path = e.request.path ?? url.pathname;
      const match = EFI_OPERATIONS.map((o) => ({ o, m: o.method === method ? o.regex.exec(path) : null })).find(
        (x) => x.m,
      );
      if (!match?.m) {
        flag(`${method} ${path}`, "request", [`no Efí operation matches ${method} ${path}`]);
        continue;
      }
      const { o, m } = match;
      const c = count(o.name);
      c.requests++;
      const req: string[] = [];
      for (const [name, schema] of Object.entries(o.params))
        req.push(...this.validate(schema, decodeURIComponent(m.groups?.[name] ?? ""), `path parameter ${name}`));
      if (o.request)
        req.push(
          ...(e.request.body === null || e.request.body === undefined
            ? ["request body: required but absent"]
            : this.validate(o.request, e.request.body, "request body")),
        );
      else if (e.request.body !== null && e.request.body !== undefined)
        req.push(`request body: given, but ${o.name} takes none`);
      flag(o.name, "request", req);
      c.responses++;
      const status = String(e.response.status);
      if (!(status in o.responses)) {
        flag(o.name, "response", [
          `status ${status}: not declared for ${o.name} (declared: ${Object.keys(o.responses).join(", ")})`,
        ]);
        continue;
      }
      const schema = o.responses[status];
      if (schema) flag(o.name, "response", this.validate(schema, e.response.body, `response body (status ${status})`));
    }
    return {
      operations: [...counts.values()],
      violations,
      notChecked: { token: 0, unanswered },
      exchanges: list.length,
    };
  }
}

/** The Efí report as text (per-operation counts, then each violation). */
export function formatEfiReport(report: CheckReport): string {
  const lines = [
    "Efí send routes checked against the schemas of scripts/bcb-contract/efi.ts (research/money-out.md)",
    "",
    "| operation | requests | responses | violations |",
    "|---|---:|---:|---:|",
  ];
  for (const o of report.operations)
    lines.push(`| ${o.operation} | ${o.requests} | ${o.responses} | ${o.violations} |`);
  lines.push("", `${report.exchanges} Efí exchanges`);
  if (report.violations.length === 0) lines.push("no violations");
  else {
    lines.push(`${report.violations.length} violation(s):`);
    for (const v of report.violations)
      lines.push(`  ${v.source}:${v.line} ${v.operation} [${v.side}] ${v.message}\n      exchange: ${v.exchange}`);
  }
  return lines.join("\n");
}
