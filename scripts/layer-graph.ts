/**
 * The layer table and the import-graph rules of `bun run check:layers` (docs/architecture.md, its rank table):
 * which layer a file belongs to, which import between two files breaks the layering, and which
 * strongly connected components of the import graph cross folders. Pure functions over
 * root-relative, `/`-separated paths; scripts/check-layers.ts reads the tree and builds the graph.
 */
import { posix } from "node:path";

/** One layer: its rank (a file imports only its own rank or lower) and the paths it owns. */
export interface Layer {
  name: string;
  /** 0 lowest; -1 for the simulators, which sit outside the ranks. */
  rank: number;
  /** Folder prefixes (ending in `/`) or single files (`src/config.ts`). */
  paths: string[];
  /** Layers of the same rank this one may import (peers import none of each other otherwise). */
  mayImport?: string[];
  /** A separate program (`src/psp-sim/`, `src/stripe-sim/`): imports ranks 0-2 and itself only. */
  simulator?: boolean;
}

/** The highest rank a simulator may import: lib, formats and pix, config. */
const SIMULATOR_MAX_RANK = 2;
/** The rank of HTTP; rule (a) forbids `src/http` to everything below it. */
const HTTP_RANK = 6;
/** The composition root's rank: the only layer that may import (launch) a simulator. */
const ROOT_RANK = 7;

/** Every layer, low to high (docs/architecture.md keeps the same table in prose). */
export const LAYERS: readonly Layer[] = [
  { name: "lib", rank: 0, paths: ["src/lib/"] },
  { name: "formats", rank: 1, paths: ["src/formats/", "src/pix/"] },
  { name: "config", rank: 2, paths: ["src/config.ts"] },
  {
    name: "store port",
    rank: 3,
    paths: ["src/store/port.ts", "src/store/port/", "src/store/rows/", "src/store/memory/"],
  },
  { name: "domain", rank: 4, paths: ["src/domain/"] },
  { name: "providers", rank: 5, paths: ["src/providers/"] },
  { name: "jobs", rank: 5, paths: ["src/jobs/"] },
  { name: "sqlite adapter", rank: 5, paths: ["src/store/sqlite/"] },
  { name: "pg adapter", rank: 5, paths: ["src/store/pg/"] },
  // HTTP serves the web pages (checkout, dashboard assets); pages and ops never reach back.
  { name: "http", rank: HTTP_RANK, paths: ["src/http/"], mayImport: ["web"] },
  { name: "web", rank: HTTP_RANK, paths: ["src/web/"] },
  { name: "ops", rank: HTTP_RANK, paths: ["src/ops/"] },
  {
    name: "composition root",
    rank: ROOT_RANK,
    paths: ["src/cli/", "src/app.ts", "src/deps.ts", "src/main.ts"],
  },
  { name: "psp-sim", rank: -1, paths: ["src/psp-sim/"], simulator: true },
  { name: "stripe-sim", rank: -1, paths: ["src/stripe-sim/"], simulator: true },
];

/** `path` without a TypeScript/JavaScript extension, so `src/config` and `src/config.ts` compare equal. */
const bare = (path: string) => path.replace(/\.(ts|tsx|js)$/, "");

/** The layer owning `file` (a path with or without extension); null when no layer does. */
export function layerOf(file: string): Layer | null {
  const f = bare(file);
  for (const layer of LAYERS) {
    if (layer.paths.some((p) => (p.endsWith("/") ? file.startsWith(p) : f === bare(p)))) return layer;
  }
  return null;
}

/** The rule an import of `to` from `from` breaks, with why; null when it keeps the layering. */
export function edgeRule(
  from: string,
  to: string,
): { rule: "http-import" | "upward-import" | "peer-import" | "simulator-import"; detail: string } | null {
  const a = layerOf(from);
  const b = layerOf(to);
  if (a === null || b === null || a === b) return null;
  const where = `${b.name} (${to})`;
  if (a.simulator) {
    if (b.simulator || b.rank > SIMULATOR_MAX_RANK)
      return {
        rule: "simulator-import",
        detail: `imports ${where}; ${a.name} is a separate program: it imports only src/lib, src/formats, src/pix and src/config.ts`,
      };
    return null;
  }
  if (b.simulator) {
    if (a.rank === ROOT_RANK) return null;
    return { rule: "simulator-import", detail: `imports ${where}; only the composition root launches a simulator` };
  }
  if (b.name === "http" && a.rank < HTTP_RANK)
    return { rule: "http-import", detail: `imports ${to} (src/http) from ${a.name}, a layer below HTTP` };
  if (a.rank < b.rank)
    return { rule: "upward-import", detail: `imports ${where}, rank ${b.rank}, from ${a.name}, rank ${a.rank}` };
  if (a.rank === b.rank && !(a.mayImport ?? []).includes(b.name))
    return { rule: "peer-import", detail: `imports ${where}; ${a.name} and ${b.name} are peers (rank ${a.rank})` };
  return null;
}

/** The folder a file sits in (its parent directory): `src/domain/charges` for `src/domain/charges/create.ts`. */
export const folderOf = (file: string) => posix.dirname(file);

/** A strongly connected component whose files sit in more than one folder, with one cycle through it. */
export interface CrossFolderCycle {
  /** The component's files, sorted. */
  files: string[];
  /** One cycle that crosses folders: first and last entries are the same file. */
  path: string[];
}

/** Strongly connected components of `graph` (file -> files it imports) with more than one file (Tarjan, iterative). */
export function components(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    // Each frame: a node and the position of the next edge to follow.
    const frames: [string, number][] = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const [v, i] = frame;
      const edges = graph.get(v) ?? [];
      if (i < edges.length) {
        frame[1] = i + 1;
        const w = edges[i]!;
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          frames.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1) out.push(scc.sort());
      }
    }
  }
  return out;
}

/** Shortest path from `from` to `to` inside `members` (both in it), `from` first. */
function pathWithin(graph: ReadonlyMap<string, readonly string[]>, members: Set<string>, from: string, to: string) {
  const prev = new Map<string, string>([[from, from]]);
  const queue = [from];
  for (let k = 0; k < queue.length && !prev.has(to); k++) {
    for (const w of graph.get(queue[k]!) ?? []) {
      if (!members.has(w) || prev.has(w)) continue;
      prev.set(w, queue[k]!);
      queue.push(w);
    }
  }
  const path = [to];
  while (path[path.length - 1] !== from) path.push(prev.get(path[path.length - 1]!)!);
  return path.reverse();
}

/**
 * Every strongly connected component of `graph` whose files sit in more than one folder, with an
 * example cycle: an import `u -> v` between two folders, then the shortest way from `v` back to `u`.
 * Circles inside one folder are allowed (a module split into files that know each other).
 */
export function crossFolderCycles(graph: ReadonlyMap<string, readonly string[]>): CrossFolderCycle[] {
  const out: CrossFolderCycle[] = [];
  for (const files of components(graph)) {
    if (new Set(files.map(folderOf)).size < 2) continue;
    const members = new Set(files);
    let path: string[] = [];
    search: for (const u of files) {
      for (const v of graph.get(u) ?? []) {
        if (members.has(v) && folderOf(v) !== folderOf(u)) {
          path = [u, ...pathWithin(graph, members, v, u)];
          break search;
        }
      }
    }
    out.push({ files, path });
  }
  return out;
}
