/**
 * Hostile request material for the API fuzz: fast-check arbitraries of JSON values (wrong types,
 * huge/negative/fractional numbers, numeric strings, 100k strings, unicode, prototype keys) shaped
 * after a route's body schema, plus raw-text bodies JSON.stringify cannot produce (5000-level
 * nesting, duplicated keys, invalid JSON) and garbage path ids; lone surrogates, prototype member
 * names and look-alike media types for the targeted cases of api.test.ts.
 */
import fc from "fast-check";

/** Numbers no amount, count or duration may take (or that break naive arithmetic). */
export const HOSTILE_NUMBERS = [
  -1,
  0,
  -0,
  0.5,
  1.5,
  99.99,
  -100,
  1e21,
  1e300,
  -1e300,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 63,
  -(2 ** 63),
  2 ** 31,
  4294967296,
  1e12 + 1,
];

/** Strings that look like numbers or booleans (the contract forbids coercion). */
export const NUMERIC_STRINGS = ["1e3", "100", "-1", "0x10", "1.5", " 100 ", "NaN", "Infinity", "true", "null", ""];

const LONG = "a".repeat(100_000);

/** Unicode and control-character strings. */
export const WEIRD_STRINGS = [
  "\u0000",
  "\u202e\u202dabc",
  "𝕮𝖔𝖋𝖗𝖊",
  "😀".repeat(300),
  "é".normalize("NFD"),
  "\ud800",
  "a\r\nb",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "../../etc/passwd",
  "%00",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, literal on purpose
  "${7*7}",
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "\udfff",
  "a\ud800@example.com",
  LONG,
  "ç".repeat(70_000),
];

const PROTO_KEYS = ["__proto__", "constructor", "prototype"];

/** A JSON value of a random shape with hostile leaves, depth-bounded. */
export const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(...NUMERIC_STRINGS),
  fc.constantFrom(...WEIRD_STRINGS),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileLeaf,
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 12 })), tie("v"), { maxKeys: 4 }),
    fc.constant({ polluted: "yes" }),
  ),
})).v;

/** Property names of a TypeBox/JSON-schema object (empty when it is not an object schema). */
export function schemaProps(schema: unknown): string[] {
  const s = schema as { type?: string; properties?: Record<string, unknown> } | undefined;
  return s?.type === "object" && s.properties ? Object.keys(s.properties) : [];
}

/**
 * Bodies for a route: non-objects (arrays, null, numbers, strings), objects using the schema's
 * property names (and prototype keys) with hostile values, and objects mixing both.
 */
export function hostileBody(schema: unknown): fc.Arbitrary<unknown> {
  const props = schemaProps(schema);
  const key = props.length
    ? fc.oneof(fc.constantFrom(...props), fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 10 }))
    : fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 10 }));
  const shaped = props.length
    ? fc.record(Object.fromEntries(props.map((p) => [p, hostileValue])), { requiredKeys: [] })
    : fc.constant({});
  return fc.oneof(
    { arbitrary: fc.oneof(fc.array(hostileValue, { maxLength: 3 }), hostileLeaf), weight: 1 },
    { arbitrary: fc.dictionary(key, hostileValue, { maxKeys: 5 }), weight: 2 },
    { arbitrary: shaped, weight: 3 },
    {
      arbitrary: fc.tuple(shaped, fc.constantFrom(...PROTO_KEYS), hostileValue).map(([o, k, v]) => {
        const copy = { ...(o as object) } as Record<string, unknown>;
        Object.defineProperty(copy, k, { value: v, enumerable: true, configurable: true, writable: true });
        return copy;
      }),
      weight: 2,
    },
  );
}

/** Raw JSON texts `JSON.stringify` cannot produce, with a label for the report. */
export function rawBodies(schema: unknown): { label: string; text: string; contentType?: string }[] {
  const props = schemaProps(schema);
  const p = props[0] ?? "amount";
  const deepArr = "[".repeat(5000) + "]".repeat(5000);
  const deepObj = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
  const out = [
    { label: "5000-level nested arrays", text: deepArr },
    { label: "5000-level nested objects", text: deepObj },
    { label: `5000-level nesting inside "${p}"`, text: `{"${p}":${deepArr}}` },
    { label: "__proto__ key (raw)", text: '{"__proto__":{"polluted":"yes","isAdmin":true}}' },
    { label: "constructor.prototype key (raw)", text: '{"constructor":{"prototype":{"polluted":"yes"}}}' },
    { label: `__proto__ inside "${p}"`, text: `{"${p}":{"__proto__":{"polluted":"yes"}}}` },
    { label: "truncated JSON", text: `{"${p}":` },
    { label: "NaN literal", text: `{"${p}":NaN}` },
    { label: "single quotes", text: `{'${p}':1}` },
    { label: "trailing comma", text: `{"${p}":1,}` },
    { label: "1e999 (parses to Infinity)", text: `{"${p}":1e999}` },
    { label: "BOM then object", text: "\ufeff{}" },
    { label: "lone surrogate escape", text: `{"${p}":"\\ud800"}` },
    { label: "NUL byte", text: "\u0000" },
    { label: "JSON-looking text as text/plain", text: `{"${p}":1}`, contentType: "text/plain" },
    { label: "form-encoded", text: `${p}=1`, contentType: "application/x-www-form-urlencoded" },
  ];
  // Duplicated keys: the first occurrence is plausible, the last (which JSON.parse keeps) hostile.
  for (const q of props.slice(0, 8)) {
    out.push({ label: `duplicated "${q}" (last = "1e3")`, text: `{"${q}":100,"${q}":"1e3"}` });
    out.push({ label: `duplicated "${q}" (last = -1)`, text: `{"${q}":"x","${q}":-1}` });
    out.push({
      label: `duplicated "${q}" (last = nested __proto__)`,
      text: `{"${q}":1,"${q}":{"__proto__":{"polluted":1}}}`,
    });
  }
  return out;
}

/** Lone UTF-16 surrogates (high, low, after text, before text): JSON can carry them as escapes. */
export const LONE_SURROGATES = [
  "\ud800",
  "\udfff",
  "a\ud800@example.com",
  "\udc00user@example.com",
  "ok\ud83d",
  "https://hooks.example.com/\ud800",
];

/** Names that index Object.prototype when user input selects a key of a plain object. */
export const PROTOTYPE_NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "prototype",
  "__defineGetter__",
  "isPrototypeOf",
];

/** Content types that are not JSON although they look like it (src/http/body.ts isJsonMediaType). */
export const WRONG_MEDIA_TYPES = [
  "application/jsonx",
  "application/json-seq",
  "application/json5",
  "text/json",
  "application/merge-patch+json",
  "application/vnd.api+json",
  "application/json; charset=latin1",
  "application/json;charset=utf-16",
  "xapplication/json",
  "application/x-json",
  "multipart/form-data; boundary=x",
];

/**
 * Dotted paths of every string-typed property of a TypeBox object schema, however nested
 * (`customer.email`), following objects and unions; arrays of strings end in `.0`.
 */
export function schemaStringPaths(schema: unknown, prefix = ""): string[] {
  const s = schema as
    | { type?: string; properties?: Record<string, unknown>; anyOf?: unknown[]; items?: unknown }
    | undefined;
  if (!s || typeof s !== "object") return [];
  if (s.type === "string") return prefix ? [prefix] : [];
  if (s.anyOf) return [...new Set(s.anyOf.flatMap((x) => schemaStringPaths(x, prefix)))];
  if (s.type === "array" && s.items) return schemaStringPaths(s.items, prefix ? `${prefix}.0` : "0");
  if (s.type === "object" && s.properties)
    return Object.entries(s.properties).flatMap(([k, v]) => schemaStringPaths(v, prefix ? `${prefix}.${k}` : k));
  return [];
}

/** `{a: {b: value}}` for path `a.b` (numeric segments make arrays). */
export function bodyAt(path: string, value: unknown): unknown {
  const [head, ...rest] = path.split(".");
  const inner = rest.length ? bodyAt(rest.join("."), value) : value;
  return /^\d+$/.test(head!) ? [inner] : { [head!]: inner };
}

/** Garbage values for path parameters (ids of no resource, traversal, injection, very long). */
export const garbageId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "ch_00000000000000000000000000",
    "med_doesnotexist",
    "wh_nope",
    "wd_nope",
    "re_nope",
    "ak_nope",
    "acc_nope",
    "ev_nope",
    "../../etc/passwd",
    "..",
    "%2e%2e",
    "' OR 1=1 --",
    "__proto__",
    "constructor",
    "null",
    "undefined",
    "0",
    "-1",
    "x".repeat(5000),
    "😀",
    "\u0000",
    "ch_",
    " ",
  ),
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
);
