// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * The blocks of docs/deploy.md that no running deployment exercises (test/multi/instances.test.ts
 * runs the HAProxy, backup and restore blocks): the systemd unit (`systemd-analyze verify` when it
 * is installed, else its required keys only), the HAProxy block after Debian's own `global`
 * section (`haproxy -c`), and the PostgreSQL settings (every one parsed by the installed server).
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pgBinDir, pgCluster, PG_START_TIMEOUT } from "../support/pg";
import { cofreShim, docBlock, docBlocks, haproxyConfig, TEST_HAPROXY_GLOBAL } from "./doc";
import { haproxyBinary } from "./support";

const dir = mkdtempSync(join(tmpdir(), "cofre-deploy-doc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `key=value` lines of an ini-style unit, by key (a key may repeat). */
function unitKeys(unit: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const line of unit.split("\n")) {
    const m = line.match(/^([A-Za-z]+)=(.*)$/);
    if (m) keys.set(m[1]!, [...(keys.get(m[1]!) ?? []), m[2]!]);
  }
  return keys;
}

test("docs/deploy.md marks the blocks the tests run", () => {
  expect([...docBlocks().keys()].sort()).toEqual(["backup", "haproxy", "postgresql", "restore", "unit"]);
});

test("the systemd template unit has what a cofre@<port> instance needs", () => {
  const k = unitKeys(docBlock("unit"));
  expect(k.get("ExecStart")).toEqual(["/usr/local/bin/cofre serve"]);
  expect(k.get("Environment")).toContain("PORT=%i");
  expect(k.get("EnvironmentFile")).toEqual(["/etc/cofre/cofre.env"]);
  expect(k.get("User")).toEqual(["cofre"]);
  expect(k.get("Restart")).toEqual(["always"]);
  expect(k.get("KillSignal")).toEqual(["SIGTERM"]);
  expect(k.get("WantedBy")).toEqual(["multi-user.target"]);
  expect(k.get("ReadWritePaths")).toEqual(["/srv/cofre"]);
});

test("systemd-analyze verify accepts the unit as instance cofre@3001 (when systemd-analyze is installed)", () => {
  const analyze = Bun.which("systemd-analyze");
  if (!analyze) {
    // Documented in docs/deploy.md "How this document is tested": only the keys are checked then.
    console.log("multi: systemd-analyze is not installed: the unit was checked for its required keys only");
    return;
  }
  // verify wants ExecStart's executable to exist: the shim stands in for /usr/local/bin/cofre.
  const shim = cofreShim(dir);
  const unit = docBlock("unit").replaceAll("/usr/local/bin/cofre", shim);
  const path = join(dir, "cofre@3001.service");
  writeFileSync(path, unit);
  const r = Bun.spawnSync([analyze, "verify", path], { stdout: "pipe", stderr: "pipe" });
  // Unknown keys and unparsable values are only warnings (exit 0): any output fails.
  expect({ code: r.exitCode, out: (r.stdout.toString() + r.stderr.toString()).trim() }).toEqual({ code: 0, out: "" });
});

test("haproxy -c accepts the HAProxy block after the test's global section and after Debian's own", () => {
  const bin = haproxyBinary();
  const block = haproxyConfig(docBlock("haproxy"), "127.0.0.1:18080", [
    "127.0.0.1:13001",
    "127.0.0.1:13002",
    "127.0.0.1:13003",
  ]);
  const globals: [string, string][] = [["test", TEST_HAPROXY_GLOBAL]];
  const debian = "/etc/haproxy/haproxy.cfg";
  if (existsSync(debian)) {
    // Debian's file: its `global` section is what the doc keeps.
    const lines = readFileSync(debian, "utf8").split("\n");
    const end = lines.findIndex((l, i) => i > 0 && /^[a-z]/.test(l));
    globals.push(["debian", `${lines.slice(0, end < 0 ? lines.length : end).join("\n")}\n`]);
  }
  writeFileSync(join(dir, "cofre.cfg"), block);
  for (const [name, global] of globals) {
    writeFileSync(join(dir, `global-${name}.cfg`), global);
    const r = Bun.spawnSync([bin, "-c", "-f", join(dir, `global-${name}.cfg`), "-f", join(dir, "cofre.cfg")], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const out = r.stdout.toString() + r.stderr.toString();
    expect({ global: name, code: r.exitCode }).toEqual({ global: name, code: 0 });
    expect(out).not.toContain("[ALERT]");
  }
});

test(
  "every PostgreSQL setting of the doc is parsed by the installed server, with durability on",
  async () => {
    const settings = docBlock("postgresql")
      .split("\n")
      .filter((l) => l.trim() && !l.trim().startsWith("#"))
      .map((l) => {
        const m = l.match(/^\s*([a-z_]+)\s*=\s*(\S+)\s*$/);
        if (!m) throw new Error(`not a "name = value" line: ${l}`);
        return [m[1]!, m[2]!] as const;
      });
    const byName = new Map(settings);
    for (const name of ["fsync", "synchronous_commit", "full_page_writes"]) expect(byName.get(name)).toBe("on");
    const max = Number(byName.get("max_connections"));
    // docs/deploy.md's example: three instances x (pool 10 + 1 notice connection) + reserved.
    expect(max).toBeGreaterThanOrEqual(3 * (10 + 1) + 3);
    // `postgres -C` parses every -c the way the server would at start (units, ranges, enums) and
    // prints one value; it runs beside the test cluster's data folder without touching it.
    const c = await pgCluster();
    const asOwner = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
    const args = settings.flatMap(([k, v]) => ["-c", `${k}=${v}`]);
    // Each run parses all of them (a bad unit, range or name exits 1); the durability ones are read back.
    for (const name of ["max_connections", "fsync", "synchronous_commit", "full_page_writes"]) {
      // cwd "/": the postgres user may not enter the checkout (a private temporary folder in CI).
      const r = Bun.spawnSync(
        [...asOwner, join(pgBinDir(), "postgres"), "-D", join(c.dir, "data"), "-C", name, ...args],
        { cwd: "/", stdout: "pipe", stderr: "pipe" },
      );
      expect({ name, code: r.exitCode, stderr: r.stderr.toString().trim() }).toEqual({ name, code: 0, stderr: "" });
      expect({ name, shown: r.stdout.toString().trim() }).toEqual({ name, shown: byName.get(name)! });
    }
  },
  PG_START_TIMEOUT,
);
