/**
 * stripe-sim request parameters: Stripe's form encoding (`a[b][0][c]=v`, `expand[]=x`), as
 * stripe-node writes bodies (application/x-www-form-urlencoded) and GET query strings, parsed into
 * nested objects (numeric-only keys become arrays), and typed readers that throw Stripe's
 * `parameter_missing` / `parameter_invalid_*` errors naming the bracket path.
 */
import { missing, invalid, unknownParam } from "./errors";

export type FormValue = string | FormValue[] | { [k: string]: FormValue };
export type Form = { [k: string]: FormValue };

function splitKey(key: string): string[] {
  const first = key.indexOf("[");
  if (first < 0) return [key];
  const parts = [key.slice(0, first)];
  const re = /\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(key.slice(first)))) parts.push(m[1]!);
  return parts;
}

function arrayify(v: FormValue): FormValue {
  if (typeof v === "string" || Array.isArray(v)) return Array.isArray(v) ? v.map(arrayify) : v;
  const keys = Object.keys(v);
  for (const k of keys) v[k] = arrayify(v[k]!);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k)))
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => v[k]!);
  return v;
}

/** Parses a form-encoded body or query string (without `?`) into nested objects. */
export function parseForm(text: string): Form {
  const root: { [k: string]: FormValue } = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const path = splitKey(rawKey);
    let node: { [k: string]: FormValue } = root;
    for (let i = 0; i < path.length; i++) {
      let seg = path[i]!;
      const last = i === path.length - 1;
      if (seg === "") seg = String(Object.keys(node).length); // `expand[]=a&expand[]=b`
      if (last) node[seg] = value;
      else {
        const next = node[seg];
        if (next === undefined || typeof next === "string" || Array.isArray(next)) node[seg] = {};
        node = node[seg] as { [k: string]: FormValue };
      }
    }
  }
  return arrayify(root) as Form;
}

/** Typed reads of a parsed form; `prefix` is the bracket path of this object in error params. */
export class Params {
  constructor(
    readonly form: Form,
    private readonly prefix = "",
  ) {}

  /** The bracket path of `key` below this object (error params). */
  name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  /** Refuses top-level keys outside `allowed` (`expand` is always allowed): 400 `parameter_unknown`. */
  only(allowed: readonly string[]): this {
    for (const k of Object.keys(this.form))
      if (k !== "expand" && !allowed.includes(k)) throw unknownParam(this.name(k));
    return this;
  }

  /** True when `key` was sent (even empty). */
  has(key: string): boolean {
    return this.form[key] !== undefined;
  }

  /** A string parameter, or undefined; 400 when it is an object or array. */
  str(key: string): string | undefined {
    const v = this.form[key];
    if (v === undefined) return undefined;
    if (typeof v !== "string")
      throw invalid(this.name(key), `Invalid string: ${this.name(key)}`, "parameter_invalid_string");
    return v;
  }

  /** A required non-empty string: 400 `parameter_missing` / `parameter_invalid_empty`. */
  reqStr(key: string): string {
    const v = this.str(key);
    if (v === undefined) throw missing(this.name(key));
    if (v === "")
      throw invalid(
        this.name(key),
        `You passed an empty string for '${this.name(key)}'. We assume empty values are an attempt to unset a parameter; however '${this.name(key)}' cannot be unset. You should remove '${this.name(key)}' from your request or supply a non-empty value.`,
        "parameter_invalid_empty",
      );
    return v;
  }

  /** An integer parameter (decimal digits, at most 15), or undefined; 400 `parameter_invalid_integer`. */
  int(key: string): number | undefined {
    const v = this.str(key);
    if (v === undefined) return undefined;
    if (!/^-?\d{1,15}$/.test(v)) throw invalid(this.name(key), `Invalid integer: ${v}`, "parameter_invalid_integer");
    return Number(v);
  }

  /** A required integer. */
  reqInt(key: string): number {
    const v = this.int(key);
    if (v === undefined) throw missing(this.name(key));
    return v;
  }

  /** `true`/`false`, or undefined; 400 `parameter_invalid_boolean`. */
  bool(key: string): boolean | undefined {
    const v = this.str(key);
    if (v === undefined) return undefined;
    if (v !== "true" && v !== "false")
      throw invalid(this.name(key), `Invalid boolean: ${v}`, "parameter_invalid_boolean");
    return v === "true";
  }

  /** A nested object (`key[...]`), or undefined. */
  obj(key: string): Params | undefined {
    const v = this.form[key];
    if (v === undefined) return undefined;
    if (typeof v === "string" || Array.isArray(v)) {
      if (v === "") return new Params({}, this.name(key));
      throw invalid(this.name(key), `Invalid object: ${this.name(key)}`, "parameter_invalid_object");
    }
    return new Params(v, this.name(key));
  }

  /** A required nested object. */
  reqObj(key: string): Params {
    const v = this.obj(key);
    if (v === undefined) throw missing(this.name(key));
    return v;
  }

  /** An array of strings (`key[0]=a` or `key[]=a`). */
  strs(key: string): string[] | undefined {
    const v = this.form[key];
    if (v === undefined) return undefined;
    const arr = Array.isArray(v) ? v : typeof v === "string" ? [v] : null;
    if (arr === null || arr.some((x) => typeof x !== "string"))
      throw invalid(this.name(key), `Invalid array: ${this.name(key)}`, "parameter_invalid_array");
    return arr as string[];
  }

  /** An array of objects (`key[0][a]=...`). */
  objs(key: string): Params[] | undefined {
    const v = this.form[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== "object" || Array.isArray(x)))
      throw invalid(this.name(key), `Invalid array: ${this.name(key)}`, "parameter_invalid_array");
    return v.map((x, i) => new Params(x as Form, `${this.name(key)}[${i}]`));
  }

  /** Stripe metadata: string values, at most 50 keys, keys <= 40 and values <= 500 characters. */
  metadata(key = "metadata"): Record<string, string> | undefined {
    const p = this.obj(key);
    if (p === undefined) return undefined;
    const out: Record<string, string> = {};
    const keys = Object.keys(p.form);
    if (keys.length > 50) throw invalid(this.name(key), "You can specify up to 50 keys in metadata.");
    for (const k of keys) {
      const v = p.form[k];
      if (typeof v !== "string") throw invalid(`${this.name(key)}[${k}]`, "Metadata values must be strings.");
      if (k.length > 40) throw invalid(`${this.name(key)}[${k}]`, "Metadata keys can have up to 40 characters.");
      if (v.length > 500) throw invalid(`${this.name(key)}[${k}]`, "Metadata values can have up to 500 characters.");
      if (v !== "") out[k] = v;
    }
    return out;
  }

  /** `expand[]` paths. */
  expand(): string[] {
    return this.strs("expand") ?? [];
  }
}
