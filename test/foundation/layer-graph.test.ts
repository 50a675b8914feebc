/**
 * The layer table and the cycle search of `check:layers` (scripts/layer-graph.ts), as pure
 * functions over paths; test/foundation/layers.test.ts checks them on planted trees.
 */
import { describe, expect, test } from "bun:test";
import { components, crossFolderCycles, layerOf } from "../../scripts/layer-graph";

describe("the layer table", () => {
  test("places each folder at its rank; peers of a rank are separate layers", () => {
    const at = (f: string) => `${layerOf(f)?.name}:${layerOf(f)?.rank}`;
    expect(
      [
        "src/lib/clock.ts",
        "src/formats/boleto.ts",
        "src/pix/qr.ts",
        "src/config.ts",
        "src/store/port.ts",
        "src/store/port/charges.ts",
        "src/store/rows/index.ts",
        "src/store/memory/claims.ts",
        "src/domain/providers/types.ts",
        "src/providers/stripe/provider.ts",
        "src/jobs/scheduler.ts",
        "src/store/sqlite/client.ts",
        "src/store/pg/index.ts",
        "src/http/routes/index.ts",
        "src/web/dashboard/app/main.tsx",
        "src/ops/backup.ts",
        "src/cli/index.ts",
        "src/app.ts",
        "src/deps.ts",
        "src/main.ts",
        "src/psp-sim/cli.ts",
      ].map(at),
    ).toEqual([
      "lib:0",
      "formats:1",
      "formats:1",
      "config:2",
      "store port:3",
      "store port:3",
      "store port:3",
      "store port:3",
      "domain:4",
      "providers:5",
      "jobs:5",
      "sqlite adapter:5",
      "pg adapter:5",
      "http:6",
      "web:6",
      "ops:6",
      "composition root:7",
      "composition root:7",
      "composition root:7",
      "composition root:7",
      "psp-sim:-1",
    ]);
  });
});

describe("the cycle search (scripts/layer-graph.ts)", () => {
  const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

  test("finds each strongly connected component of more than one file, and nothing in a DAG or a self-import", () => {
    const g = graph({
      "a/1": ["b/1"],
      "b/1": ["a/1", "c/1"],
      "c/1": ["d/1", "c/1"],
      "d/1": ["e/1"],
      "e/1": ["d/1"],
      "f/1": ["a/1"],
    });
    expect(components(g).sort()).toEqual([
      ["a/1", "b/1"],
      ["d/1", "e/1"],
    ]);
    expect(components(graph({ "a/1": ["b/1"], "b/1": ["c/1"], "c/1": [] }))).toEqual([]);
  });

  test("an example path is a real cycle that leaves its first file's folder", () => {
    const g = graph({
      "x/a": ["x/b"],
      "x/b": ["y/c", "x/a"],
      "y/c": ["z/d"],
      "z/d": ["x/a", "y/c"],
    });
    const [c] = crossFolderCycles(g);
    expect(c!.files).toEqual(["x/a", "x/b", "y/c", "z/d"]);
    expect(c!.path).toEqual(["x/b", "y/c", "z/d", "x/a", "x/b"]);
    for (let i = 0; i + 1 < c!.path.length; i++) expect(g.get(c!.path[i]!)).toContain(c!.path[i + 1]!);
  });

  test("walks a long chain without exhausting the stack", () => {
    const n = 20000;
    const g = new Map<string, string[]>();
    for (let i = 0; i < n; i++) g.set(`d${i % 2}/f${i}`, [`d${(i + 1) % 2}/f${(i + 1) % n}`]);
    const found = crossFolderCycles(g);
    expect(found.length).toBe(1);
    expect(found[0]!.files.length).toBe(n);
    expect(found[0]!.path.length).toBe(n + 1);
  });
});
