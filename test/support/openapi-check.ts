/**
 * Checks real answers against the served OpenAPI document (GET /docs/json): the status must be
 * documented for the operation of that method + path, the content type must be one it lists, and
 * a JSON body must validate against its schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses).
 * Response schemas are closed (`additionalProperties: false`) with required keys, so a field a
 * view gains or loses without its schema fails here. The harness runs it on every `call`, which
 * makes every test of the suite a drift check. Validators are compiled once per process and
 * document shape (`checkerFor` caches by the document's text).
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";

type Media = { schema?: unknown };
type Response = { content?: Record<string, Media> };
type Operation = { responses?: Record<string, Response> };
export type OpenApiDoc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown> };
};

export interface Answer {
  method: string;
  /** Path with or without its query string. */
  path: string;
  status: number;
  contentType: string | null;
  /** Parsed JSON, or the text when it is not JSON. */
  body: unknown;
  text: string;
}

/** One compiled document: path matchers and validators compiled on first use. */
export class DocChecker {
  private readonly ajv: Ajv2020;
  private readonly matchers: { re: RegExp; template: string; literal: number }[];
  /** By operation and status, and by schema text (many answers share one schema, e.g. the envelope). */
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly bySchema = new Map<string, ValidateFunction>();
  private envelope: ValidateFunction | undefined;

  constructor(readonly doc: OpenApiDoc) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    // The components as one schema, so `#/components/schemas/X` refs resolve as `doc#/$defs/X`.
    this.ajv.addSchema(rewriteRefs({ $id: "doc", $defs: doc.components.schemas ?? {} }) as object);
    this.matchers = Object.keys(doc.paths)
      .map((template) => ({
        template,
        re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
        literal: template.replace(/\{[^}]+\}/g, "").length,
      }))
      // The most literal template first: /v1/med/cases/{id}/evidence before /v1/med/cases/{id}/{x}.
      .sort((a, b) => b.literal - a.literal);
  }

  /** The documented path template of `path` for `method`, or undefined. */
  operationOf(method: string, path: string): { template: string; op: Operation } | undefined {
    const bare = path.split("?")[0]!;
    const m = method.toLowerCase();
    for (const { re, template } of this.matchers)
      if (re.test(bare) && this.doc.paths[template]![m]) return { template, op: this.doc.paths[template]![m]! };
    return undefined;
  }

  /** Problems of `answer` against the document ([] when it conforms). */
  problems(answer: Answer): string[] {
    const found = this.operationOf(answer.method, answer.path);
    const where = `${answer.method} ${answer.path} -> ${answer.status}`;
    const json = (answer.contentType ?? "").toLowerCase().startsWith("application/json");
    // An operation without the 500 that `op()` (src/http/openapi.ts) adds to every product route
    // is a route a test mounted on its own app (e.g. envelope.test.ts's /t/...); that every
    // product route documents its answers is checked on the served document by
    // test/docs/openapi.test.ts.
    if (!found?.op.responses?.["500"]) {
      // Undocumented routes: the reference's own pages, test-only routes, and errors of unknown paths/methods.
      if (answer.status >= 400 && json)
        return this.check(this.envelopeValidator(), answer.body, `${where} (no operation)`);
      return [];
    }
    const response = found.op.responses?.[String(answer.status)];
    if (!response)
      return [
        `${where}: status ${answer.status} is not documented for ${answer.method.toUpperCase()} ${found.template} (documented: ${Object.keys(found.op.responses ?? {}).join(", ") || "none"})`,
      ];
    const content = response.content ?? {};
    const types = Object.keys(content);
    if (types.length === 0)
      return answer.text === "" ? [] : [`${where}: documented without a body, got ${answer.contentType}`];
    const sent = (answer.contentType ?? "").split(";")[0]!.trim().toLowerCase();
    const media =
      types.find((t) => t === sent) ??
      types.find((t) => t === "application/octet-stream" && sent !== "application/json");
    if (!media)
      return [`${where}: content type ${sent || "(none)"} is not documented (documented: ${types.join(", ")})`];
    if (media !== "application/json") return [];
    const body = answer.body;
    if (typeof body === "string") return [`${where}: the body is not JSON`];
    const key = `${answer.method.toUpperCase()} ${found.template} ${answer.status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      const text = JSON.stringify(content[media]!.schema ?? {});
      validate = this.bySchema.get(text) ?? this.ajv.compile(rewriteRefs(content[media]!.schema ?? {}) as object);
      this.bySchema.set(text, validate);
      this.validators.set(key, validate);
    }
    return this.check(validate, body, where);
  }

  private envelopeValidator(): ValidateFunction {
    return (this.envelope ??= this.ajv.compile({ $ref: "doc#/$defs/ErrorEnvelope" }));
  }

  private check(validate: ValidateFunction, body: unknown, where: string): string[] {
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) =>
        `${where}: body${e.instancePath} ${e.message}${e.params && "additionalProperty" in e.params ? ` (${e.params.additionalProperty})` : ""}`,
    );
  }
}

/** `#/components/schemas/X` -> `doc#/$defs/X` (the components live in the schema `doc`). */
function rewriteRefs(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"doc#/$defs/'));
}

const checkers = new Map<string, DocChecker>();

/** The checker of `doc`, shared by every harness whose served document has the same text. */
export function checkerFor(doc: OpenApiDoc): DocChecker {
  const text = JSON.stringify(doc);
  let c = checkers.get(text);
  if (!c) {
    c = new DocChecker(JSON.parse(text));
    checkers.set(text, c);
  }
  return c;
}
