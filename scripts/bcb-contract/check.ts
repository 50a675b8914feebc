/**
 * BCB API Pix contract check: validates psp-sim exchange-log lines (src/psp-sim/exchange-log.ts)
 * against the official OpenAPI (spec.ts) with ajv. Requests (`kind: "api"`: what Cofre's adapter
 * sent): path matched to a path template and its parameter schemas, method declared, query
 * parameters declared and valid, JSON body against the operation's requestBody schema. Responses
 * (what the simulator answered): status declared for the operation, media type and body against
 * that status's schema. Callbacks (`kind: "callback"`) are checked against the `callbacks` of
 * `PUT /webhook/{chave}`. Token calls are outside the document (RFC 6749) and only counted.
 */
import { readFileSync } from "node:fs";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { Exchange } from "../../src/psp-sim/exchange-log";
import { deref, HTTP_METHODS, type LoadedSpec, type OpenApiDoc } from "./spec";

/** One exchange with where it was read from (file, 1-based line). */
export interface LoggedExchange {
  source: string;
  line: number;
  exchange: Exchange;
}

export interface Violation {
  source: string;
  line: number;
  /** `PUT /cob/{txid}`, or `METHOD path` when nothing matched. */
  operation: string;
  side: "request" | "response";
  message: string;
  /** The exchange in one line: `METHOD path?query -> status`. */
  exchange: string;
}

export interface OperationCount {
  operation: string;
  requests: number;
  /** Responses checked (callbacks nobody answered are not counted). */
  responses: number;
  violations: number;
}

export interface CheckReport {
  operations: OperationCount[];
  violations: Violation[];
  /** Token calls (outside the document) and callbacks that got no answer. */
  notChecked: { token: number; unanswered: number };
  exchanges: number;
}

/** Reads one JSONL exchange log; a line that is not an exchange throws (the log is ours). */
export function readExchangeLog(file: string): LoggedExchange[] {
  const out: LoggedExchange[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (text.trim() === "") return;
      let e: Exchange;
      try {
        e = JSON.parse(text);
      } catch {
        throw new Error(`${file}:${i + 1}: not a JSON line`);
      }
      if (!e || typeof e !== "object" || !e.request || !e.response || !["api", "token", "callback"].includes(e.kind))
        throw new Error(`${file}:${i + 1}: not an exchange-log line`);
      out.push({ source: file, line: i + 1, exchange: e });
    });
  return out;
}

interface Operation {
  name: string;
  op: any;
  pointer: string;
  /** Path-item and operation parameters merged (operation wins), dereferenced, with pointers. */
  params: { name: string; in: string; required: boolean; schemaPointer: string | null }[];
}

interface Template {
  template: string;
  regex: RegExp;
  names: string[];
  methods: Map<string, Operation>;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
const mediaType = (ct: string | undefined) => (ct ?? "").split(";")[0]!.trim().toLowerCase();

/** ajv's errors as `field: message` lines, the field as a JSON pointer into the body. */
function describe(errors: ErrorObject[] | null | undefined, where: string): string[] {
  return (errors ?? []).map((e) => {
    const field = `${where}${e.instancePath}`;
    const extra =
      e.keyword === "additionalProperties"
        ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
        : e.keyword === "enum"
          ? ` (${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)})`
          : "";
    return `${field}: ${e.message}${extra}`;
  });
}

export class ContractChecker {
  private readonly doc: OpenApiDoc;
  private readonly ajv: Ajv;
  /** For path and query parameters, whose values arrive as strings. */
  private readonly ajvCoerce: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: Template[] = [];
  private readonly callbacks: { suffix: string; op: Operation }[] = [];

  constructor(spec: LoadedSpec) {
    this.doc = spec.doc;
    const make = (coerceTypes: boolean) => {
      const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes });
      addFormats(ajv);
      ajv.addSchema(this.doc as object, "bcb");
      return ajv;
    };
    this.ajv = make(false);
    this.ajvCoerce = make(true);
    for (const [template, rawItem] of Object.entries<any>(this.doc.paths)) {
      const itemPtr = `/paths/${template.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      const item = deref(this.doc, rawItem, itemPtr);
      const names: string[] = [];
      const regex = new RegExp(
        "^" +
          template
            .split(/(\{[^}]+\})/)
            .map((part) => {
              if (!part.startsWith("{")) return escapeRegex(part);
              names.push(part.slice(1, -1));
              return "([^/]+)";
            })
            .join("") +
          "/?$",
      );
      const methods = new Map<string, Operation>();
      for (const m of HTTP_METHODS) {
        const op = item.node[m];
        if (!op) continue;
        const o = this.operation(
          `${m.toUpperCase()} ${template}`,
          op,
          `${item.pointer}/${m}`,
          item.node.parameters ?? [],
          `${item.pointer}/parameters`,
        );
        methods.set(m.toUpperCase(), o);
        for (const [cbName, cb] of Object.entries<any>(op.callbacks ?? {}))
          for (const [expr, cbItem] of Object.entries<any>(cb)) {
            const p = `${o.pointer}/callbacks/${cbName}/${expr.replace(/~/g, "~0").replace(/\//g, "~1")}`;
            for (const cm of HTTP_METHODS)
              if (cbItem[cm])
                this.callbacks.push({
                  suffix: expr.replace(/^\{[^}]*\}/, ""),
                  op: this.operation(
                    `${cm.toUpperCase()} {webhookUrl}${expr.replace(/^\{[^}]*\}/, "")} (callback of ${o.name})`,
                    cbItem[cm],
                    `${p}/${cm}`,
                    [],
                    "",
                  ),
                });
          }
      }
      this.templates.push({ template, regex, names, methods });
    }
    // Literal paths before templated ones (`/pix` before `/{pixUrlAccessToken}`).
    this.templates.sort((a, b) => a.names.length - b.names.length || b.template.length - a.template.length);
  }

  private operation(name: string, op: any, pointer: string, itemParams: any[], itemParamsPtr: string): Operation {
    const params = new Map<string, Operation["params"][number]>();
    const add = (list: any[], base: string) =>
      list.forEach((raw, i) => {
        const p = deref(this.doc, raw, `${base}/${i}`);
        const schema = p.node.schema ? deref(this.doc, p.node.schema, `${p.pointer}/schema`) : null;
        params.set(`${p.node.in}:${p.node.name}`, {
          name: p.node.name,
          in: p.node.in,
          required: !!p.node.required,
          schemaPointer: schema?.pointer ?? null,
        });
      });
    add(itemParams, itemParamsPtr);
    add(op.parameters ?? [], `${pointer}/parameters`);
    return { name, op, pointer, params: [...params.values()] };
  }

  private validator(pointer: string, coerce = false): ValidateFunction {
    const key = `${coerce ? "c" : "s"}${pointer}`;
    let v = this.compiled.get(key);
    if (!v) {
      const ajv = coerce ? this.ajvCoerce : this.ajv;
      v = coerce
        ? ajv.compile({ type: "object", properties: { value: { $ref: `bcb#${pointer}` } } })
        : ajv.compile({ $ref: `bcb#${pointer}` });
      this.compiled.set(key, v);
    }
    return v;
  }

  private param(p: Operation["params"][number], value: string, where: string): string[] {
    if (!p.schemaPointer) return [];
    const v = this.validator(p.schemaPointer, true);
    return v({ value }) ? [] : describe(v.errors, where).map((m) => m.replace(`${where}/value`, where));
  }

  /** Matches a request path (below the API base) to an operation; null when none matches. */
  match(
    method: string,
    path: string,
  ): { op: Operation; values: Record<string, string> } | { op: null; methodsAt: string | null } {
    let methodsAt: string | null = null;
    for (const t of this.templates) {
      const m = t.regex.exec(path);
      if (!m) continue;
      const op = t.methods.get(method.toUpperCase());
      if (!op) {
        methodsAt ??= `${t.template} (${[...t.methods.keys()].join(", ")})`;
        continue;
      }
      const values: Record<string, string> = {};
      t.names.forEach((n, i) => {
        values[n] = decodeURIComponent(m[i + 1]!);
      });
      return { op, values };
    }
    return { op: null, methodsAt };
  }

  private checkRequest(
    op: Operation,
    e: Exchange,
    pathValues: Record<string, string>,
    query: URLSearchParams,
  ): string[] {
    const out: string[] = [];
    for (const p of op.params.filter((x) => x.in === "path"))
      out.push(...this.param(p, pathValues[p.name] ?? "", `path parameter ${p.name}`));
    const queryParams = op.params.filter((x) => x.in === "query");
    for (const p of queryParams) {
      const given = query.getAll(p.name);
      if (given.length === 0) {
        if (p.required) out.push(`query parameter ${p.name}: required but absent`);
        continue;
      }
      for (const value of given) out.push(...this.param(p, value, `query parameter ${p.name}`));
    }
    for (const name of new Set(query.keys()))
      if (!queryParams.some((p) => p.name === name)) out.push(`query parameter ${name}: not declared for ${op.name}`);
    const rb = op.op.requestBody ? deref(this.doc, op.op.requestBody, `${op.pointer}/requestBody`) : null;
    const body = e.request.body;
    if (!rb) {
      if (body !== null && body !== undefined) out.push(`request body: given, but ${op.name} declares none`);
      return out;
    }
    if (body === null || body === undefined) {
      if (rb.node.required) out.push("request body: required but absent");
      return out;
    }
    const ct = mediaType(e.request.headers["content-type"]);
    const content = rb.node.content ?? {};
    const media = content[ct] ? ct : Object.keys(content)[0];
    if (!content[ct])
      out.push(`request content-type: ${ct || "(none)"} not declared (declared: ${Object.keys(content).join(", ")})`);
    if (typeof body === "string") return [...out, "request body: not JSON"];
    if (media && content[media].schema) {
      const s = deref(this.doc, content[media].schema, `${rb.pointer}/content/${media.replace(/\//g, "~1")}/schema`);
      const v = this.validator(s.pointer);
      if (!v(body)) out.push(...describe(v.errors, "request body"));
    }
    return out;
  }

  private checkResponse(op: Operation, e: Exchange): string[] {
    const status = String(e.response.status);
    const responses = op.op.responses ?? {};
    const key = responses[status]
      ? status
      : responses[`${status[0]}XX`]
        ? `${status[0]}XX`
        : responses.default
          ? "default"
          : null;
    if (!key) return [`status ${status}: not declared for ${op.name} (declared: ${Object.keys(responses).join(", ")})`];
    const r = deref(this.doc, responses[key], `${op.pointer}/responses/${key}`);
    const content = r.node.content as Record<string, any> | undefined;
    const body = e.response.body;
    if (!content || Object.keys(content).length === 0)
      return body === null || body === undefined || body === ""
        ? []
        : [`response body: given, but status ${status} of ${op.name} declares none`];
    if (body === null || body === undefined)
      return [`response body: absent, but status ${status} declares ${Object.keys(content).join(", ")}`];
    const out: string[] = [];
    const ct = mediaType(e.response.headers["content-type"]);
    const media = content[ct] ? ct : Object.keys(content)[0]!;
    if (!content[ct])
      out.push(
        `response content-type: ${ct || "(none)"} not declared for status ${status} (declared: ${Object.keys(content).join(", ")})`,
      );
    if (typeof body === "string") return [...out, "response body: not JSON"];
    if (content[media].schema) {
      const s = deref(this.doc, content[media].schema, `${r.pointer}/content/${media.replace(/\//g, "~1")}/schema`);
      const v = this.validator(s.pointer);
      if (!v(body)) out.push(...describe(v.errors, `response body (status ${status})`));
    }
    return out;
  }

  /** Checks every exchange; the report's counts are per operation, in first-seen order. */
  check(list: LoggedExchange[]): CheckReport {
    const counts = new Map<string, OperationCount>();
    const violations: Violation[] = [];
    const notChecked = { token: 0, unanswered: 0 };
    const count = (name: string) => {
      let c = counts.get(name);
      if (!c) counts.set(name, (c = { operation: name, requests: 0, responses: 0, violations: 0 }));
      return c;
    };
    for (const { source, line, exchange: e } of list) {
      if (e.kind === "token") {
        notChecked.token++;
        continue;
      }
      const url = new URL(e.request.url ?? `http://x${e.request.path ?? "/"}`);
      const method = (e.request.method ?? "GET").toUpperCase();
      const summary = `${method} ${url.pathname}${url.search} -> ${e.response.status ?? "?"}`;
      const flag = (operation: string, side: Violation["side"], messages: string[]) => {
        for (const message of messages) violations.push({ source, line, operation, side, message, exchange: summary });
        if (messages.length) count(operation).violations += messages.length;
      };
      let op: Operation | null = null;
      let values: Record<string, string> = {};
      if (e.kind === "callback") {
        op = this.callbacks.find((c) => c.op.name.startsWith(method) && url.pathname.endsWith(c.suffix))?.op ?? null;
        if (!op) {
          flag(`${method} ${url.pathname}`, "request", [
            `no callback of the document matches ${method} ${url.pathname}`,
          ]);
          continue;
        }
      } else {
        const m = this.match(method, e.request.path ?? url.pathname);
        if (!m.op) {
          const where = m.methodsAt ? `: method ${method} not declared at ${m.methodsAt}` : "";
          flag(`${method} ${e.request.path ?? url.pathname}`, "request", [
            `no operation of the document matches ${method} ${e.request.path ?? url.pathname}${where}`,
          ]);
          continue;
        }
        op = m.op;
        values = m.values;
      }
      const c = count(op.name);
      c.requests++;
      flag(op.name, "request", this.checkRequest(op, e, values, url.searchParams));
      if (e.kind === "callback" && !e.response.status) {
        notChecked.unanswered++;
        continue;
      }
      c.responses++;
      flag(op.name, "response", this.checkResponse(op, e));
    }
    return { operations: [...counts.values()], violations, notChecked, exchanges: list.length };
  }
}

/** The report as text: corrections applied, per-operation counts, then each violation with its exchange. */
export function formatReport(spec: LoadedSpec, report: CheckReport): string {
  const lines = [
    `BCB API Pix contract check against ${spec.file}`,
    "corrections applied to the loaded document (src/psp-sim/NOTES.md):",
  ];
  for (const c of spec.applied) lines.push(`  - ${c.name} (${c.changed} place${c.changed === 1 ? "" : "s"})`);
  lines.push("", "| operation | requests | responses | violations |", "|---|---:|---:|---:|");
  for (const o of report.operations)
    lines.push(`| ${o.operation} | ${o.requests} | ${o.responses} | ${o.violations} |`);
  lines.push(
    "",
    `${report.exchanges} exchanges; not checked: ${report.notChecked.token} token calls (RFC 6749, outside the document), ${report.notChecked.unanswered} unanswered callbacks`,
  );
  if (report.violations.length === 0) lines.push("no violations");
  else {
    lines.push(`${report.violations.length} violation(s):`);
    for (const v of report.violations)
      lines.push(`  ${v.source}:${v.line} ${v.operation} [${v.side}] ${v.message}\n      exchange: ${v.exchange}`);
  }
  return lines.join("\n");
}
