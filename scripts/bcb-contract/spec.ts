/**
 * The official BCB API Pix OpenAPI (release 2.9.0, `openapi.yaml` of github.com/bacen/pix-api; not in this repository)
 * loaded for the contract check, with the named corrections of its known defects applied in memory
 * (never to a copy of the file). Each correction keeps to the schema's intent; they are listed in
 * `src/psp-sim/NOTES.md` "Defects of the official OpenAPI".
 */
import { existsSync, readFileSync } from "node:fs";
import { parse } from "yaml";

/** The parsed document (OpenAPI 3.0 object; loosely typed: it is walked by JSON pointer). */
export type OpenApiDoc = Record<string, any>;

/** A missing or unreadable document: the check cannot run without the official file. */
export class SpecMissingError extends Error {}

export interface Correction {
  /** Stable name, printed in the report. */
  name: string;
  /** Why the document is wrong and what the correction keeps. */
  reason: string;
  /** Mutates `doc`; returns how many places it changed (0 = the defect was not found). */
  apply(doc: OpenApiDoc): number;
}

/** Calls `fn` on every object node of `node` (depth first), with its JSON pointer. */
function walk(node: unknown, pointer: string, fn: (obj: Record<string, any>, pointer: string) => void): void {
  if (Array.isArray(node))
    node.forEach((v, i) => {
      walk(v, `${pointer}/${i}`, fn);
    });
  else if (node && typeof node === "object") {
    fn(node as Record<string, any>, pointer);
    for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, fn);
  }
}

/** The corrections, in the order applied. */
export const CORRECTIONS: Correction[] = [
  {
    name: "location-without-scheme",
    reason:
      "PayloadLocation.location and CobGerada.location are `format: uri`, but a location is written without a scheme " +
      "(BR Code field 26 sub-field 25; the document's own examples, e.g. `pix.example.com/qr/v2/...`): the format is dropped, the string type kept.",
    apply(doc) {
      let n = 0;
      walk(doc.components?.schemas, "", (obj) => {
        const loc = obj.properties?.location;
        if (loc && loc.format === "uri") {
          delete loc.format;
          n++;
        }
      });
      return n;
    },
  },
  {
    name: "cpf-pattern-slashes",
    reason:
      'Every CPF pattern is the literal "/^\\d{11}$/" (slashes included: PessoaFisica.cpf, CPF.cpf, the `cpf` query parameters), ' +
      "which no CPF matches; the intended `^\\d{11}$` is used.",
    apply(doc) {
      let n = 0;
      walk(doc, "", (obj) => {
        if (obj.pattern === "/^\\d{11}$/") {
          obj.pattern = "^\\d{11}$";
          n++;
        }
      });
      return n;
    },
  },
  {
    name: "pix-consultados-required",
    reason:
      "PixConsultados.required lists `cobs` (copied from CobsConsultadas) while its list property is `pix`: `pix` is required instead.",
    apply(doc) {
      const s = doc.components?.schemas?.PixConsultados;
      const i = s?.required?.indexOf("cobs") ?? -1;
      if (i < 0) return 0;
      s.required[i] = "pix";
      return 1;
    },
  },
  {
    name: "oauth2-401",
    reason:
      "Every operation is protected by OAuth2 yet none declares 401, the answer RFC 6750 §3.1 prescribes for an expired or invalid " +
      "token (a client refreshes its token on it): 401 with a Problema body is declared on every operation that lacks it.",
    apply(doc) {
      let n = 0;
      for (const item of Object.values<any>(doc.paths ?? {}))
        for (const [method, op] of Object.entries<any>(item))
          if (HTTP_METHODS.includes(method) && op.responses && !op.responses["401"]) {
            op.responses["401"] = {
              description: "Token de acesso ausente, expirado ou inválido (RFC 6750).",
              content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problema" } } },
            };
            n++;
          }
      return n;
    },
  },
];

export const HTTP_METHODS = ["get", "put", "post", "patch", "delete", "head", "options"];

export interface LoadedSpec {
  doc: OpenApiDoc;
  file: string;
  /** Corrections applied, with how many places each changed. */
  applied: { name: string; reason: string; changed: number }[];
}

/**
 * Reads and parses the official document at `file` and applies `corrections` (default all) in memory.
 * Throws `SpecMissingError` when the file is missing or is not an OpenAPI 3 document.
 */
export function loadSpec(file: string, corrections: Correction[] = CORRECTIONS): LoadedSpec {
  if (!existsSync(file))
    throw new SpecMissingError(
      `the official BCB API Pix OpenAPI was not found at ${file}; pass the path of openapi.yaml (release 2.9.0, from github.com/bacen/pix-api)`,
    );
  let doc: OpenApiDoc;
  try {
    doc = parse(readFileSync(file, "utf8"), { maxAliasCount: -1 });
  } catch (err) {
    throw new SpecMissingError(`${file} is not readable YAML: ${(err as Error).message}`);
  }
  if (!doc || typeof doc !== "object" || typeof doc.openapi !== "string" || !doc.paths || !doc.components)
    throw new SpecMissingError(`${file} is not an OpenAPI 3 document (no openapi/paths/components)`);
  const applied = corrections.map((c) => ({ name: c.name, reason: c.reason, changed: c.apply(doc) }));
  return { doc, file, applied };
}

/** Follows `$ref`s (local `#/...` pointers) from `node` at `pointer`; returns the target and its pointer. */
export function deref(doc: OpenApiDoc, node: any, pointer: string): { node: any; pointer: string } {
  for (let i = 0; node && typeof node === "object" && typeof node.$ref === "string"; i++) {
    if (i > 32 || !node.$ref.startsWith("#/")) throw new Error(`unresolvable $ref ${node.$ref} at ${pointer}`);
    pointer = node.$ref.slice(1);
    node = pointer
      .split("/")
      .slice(1)
      .reduce((o: any, k) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    if (node === undefined) throw new Error(`dangling $ref #${pointer}`);
  }
  return { node, pointer };
}
