/**
 * Wrong method vs unknown path (extensions.md "Wrong method"): the methods a path answers,
 * computed from the router's route list once, and consulted only when no route matched.
 */

/** One mounted route as Elysia lists it in `app.routes`. */
interface Route {
  method: string;
  path: string;
}

/**
 * Index of the methods of every path pattern: static paths in a Map, parameterised ones
 * (`/v1/payments/:id`, a trailing `*`) as segment lists matched in order. GET routes also
 * answer HEAD (Bun serves HEAD for them), so `Allow` lists it.
 */
export class MethodIndex {
  private readonly exact = new Map<string, Set<string>>();
  private readonly patterns: { segments: string[]; methods: Set<string> }[] = [];

  /** Number of routes indexed (the app rebuilds the index when its route list grew). */
  readonly size: number;

  constructor(routes: readonly Route[]) {
    this.size = routes.length;
    const byPattern = new Map<string, Set<string>>();
    for (const r of routes) {
      const m = r.method.toUpperCase();
      if (m === "ALL" || m === "WS") continue;
      let set = byPattern.get(r.path);
      if (!set) byPattern.set(r.path, (set = new Set()));
      set.add(m);
      if (m === "GET") set.add("HEAD");
    }
    for (const [path, methods] of byPattern) {
      if (path.includes(":") || path.includes("*")) this.patterns.push({ segments: path.split("/"), methods });
      else this.exact.set(trimSlash(path), methods);
    }
  }

  /** Methods `path` (a request pathname) answers, sorted; empty when no route has this path. */
  allowed(path: string): string[] {
    const p = trimSlash(path);
    const out = new Set(this.exact.get(p) ?? []);
    const segs = p.split("/");
    for (const pat of this.patterns) if (matches(pat.segments, segs)) for (const m of pat.methods) out.add(m);
    return [...out].sort();
  }
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/** Segment match: `:name` takes one non-empty segment, `*` the rest (possibly empty). */
function matches(pattern: string[], segs: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p === "*") return true;
    const s = segs[i];
    if (s === undefined) return p.endsWith("?");
    if (p.startsWith(":")) {
      if (s === "") return false;
      continue;
    }
    if (p !== s) return false;
  }
  return pattern.length === segs.length;
}
