/**
 * The blocks of docs/deploy.md marked `# checked by test/multi: <name>` (fenced blocks whose first
 * line is that comment), and what running them needs: the HAProxy block with only its addresses
 * replaced, a test `global` section, and a `cofre` shim for the shell blocks and the unit.
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pgBinDir } from "../support/pg";

const ROOT = join(import.meta.dir, "..", "..");
const DOC = join(ROOT, "docs/deploy.md");
const MARK = /^# checked by test\/multi: (\S+)\s*$/;

/**
 * The fenced blocks of docs/deploy.md whose first line is `# checked by test/multi: <name>`, by name (marker line
 * dropped).
 */
export function docBlocks(path = DOC): Map<string, string> {
  const out = new Map<string, string>();
  const lines = readFileSync(path, "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```/.test(lines[i]!)) continue;
    const indent = lines[i]!.match(/^\s*/)![0];
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== "```") end++;
    const body = lines.slice(start, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l));
    const m = body[0]?.match(MARK);
    if (m) {
      if (out.has(m[1]!)) throw new Error(`docs/deploy.md: two blocks named "${m[1]}"`);
      out.set(m[1]!, `${body.slice(1).join("\n")}\n`);
    }
    i = end;
  }
  return out;
}

/** The block `name` of docs/deploy.md; throws when the document has none. */
export function docBlock(name: string): string {
  const b = docBlocks().get(name);
  if (!b) throw new Error(`docs/deploy.md has no block marked "# checked by test/multi: ${name}"`);
  return b;
}

/**
 * The doc's HAProxy block with its addresses replaced (and nothing else): the `bind` address by
 * `bind`, the `server` addresses in order by `servers`. Throws when the block has another number
 * of `server` lines or no `bind` line, so a changed document cannot silently test something else.
 */
export function haproxyConfig(block: string, bind: string, servers: string[]): string {
  let binds = 0;
  let n = 0;
  const out = block.split("\n").map((line) => {
    const b = line.match(/^(\s*bind\s+)(\S+)(.*)$/);
    if (b) {
      binds++;
      return `${b[1]}${bind}${b[3]}`;
    }
    const s = line.match(/^(\s*server\s+\S+\s+)(\S+:\d+)(.*)$/);
    if (s) {
      const to = servers[n++];
      if (!to) throw new Error(`the HAProxy block of docs/deploy.md has more than ${servers.length} server lines`);
      return `${s[1]}${to}${s[3]}`;
    }
    return line;
  });
  if (binds !== 1) throw new Error(`the HAProxy block of docs/deploy.md has ${binds} bind lines, expected 1`);
  if (n !== servers.length)
    throw new Error(
      `the HAProxy block of docs/deploy.md has ${n} server lines, the test runs ${servers.length} instances`,
    );
  return out.join("\n");
}

/**
 * A `global` section for a test HAProxy (started with `-db`, in the foreground): no chroot, no
 * privilege drop, the request log on stdout (its tail goes into failure messages).
 */
export const TEST_HAPROXY_GLOBAL = "global\n    maxconn 2048\n    log stdout format raw local0\n";

/** A directory holding an executable `cofre` that runs `bun <repo>/src/main.ts "$@"` (for the doc's shell blocks and unit). */
export function cofreShim(dir: string): string {
  const path = join(dir, "cofre");
  writeFileSync(path, `#!/bin/sh\nexec bun ${JSON.stringify(join(ROOT, "src/main.ts"))} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** PATH for running the doc's shell blocks: the shim's folder, the installed server's tools, then the usual PATH. */
export function blockPath(shimDir: string): string {
  return [shimDir, pgBinDir(), process.env.PATH ?? ""].join(":");
}
