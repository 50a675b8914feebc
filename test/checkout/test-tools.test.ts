/**
 * `bun run test` installs the system tools the suite needs (scripts/test-tools.sh, issue 13
 * section 1) and the browser tests fail loudly without Chromium (test/support/browser.ts).
 * The script runs against a fake bin directory: `id`, `apt-get` and `sudo` are stubs that record
 * their calls, so nothing is installed here.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromiumPath } from "../support/browser";

const SCRIPT = join(import.meta.dir, "../../scripts/test-tools.sh");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Fake {
  uid: number;
  apt?: boolean;
  sudo?: "passwordless" | "password";
  aptFails?: boolean;
}

/** Runs the script with PATH = a fake bin dir; returns exit code, stderr and the recorded calls. */
function run(fake: Fake) {
  const bin = mkdtempSync(join(tmpdir(), "cofre-tools-"));
  dirs.push(bin);
  const log = join(bin, "calls.log");
  const script = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  for (const tool of ["sh", "env", "chmod"]) symlinkSync(Bun.which(tool)!, join(bin, tool));
  script("id", `echo ${fake.uid}`);
  if (fake.apt !== false)
    script(
      "apt-get",
      `echo "apt-get DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*" >> ${log}
${fake.aptFails ? "exit 100" : ""}
if [ "$1" = install ]; then printf '#!/bin/sh\\n' > ${bin}/chromium; chmod +x ${bin}/chromium; fi`,
    );
  if (fake.sudo)
    script(
      "sudo",
      `echo "sudo $*" >> ${log}
[ "$1" = -n ] && shift
[ "$1" = true ] && exit ${fake.sudo === "passwordless" ? 0 : 1}
exec "$@"`,
    );
  const r = Bun.spawnSync(["/bin/bash", SCRIPT], { env: { PATH: bin }, stderr: "pipe", stdout: "pipe" });
  const calls = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
  return { code: r.exitCode, stderr: r.stderr.toString(), calls, installed: existsSync(join(bin, "chromium")) };
}

const MANUAL = "sudo sh -c 'DEBIAN_FRONTEND=noninteractive apt-get update && apt-get install -y --no-upgrade chromium'";

describe("scripts/test-tools.sh", () => {
  test("as root installs a missing chromium with apt-get, non-interactively and upgrading nothing", () => {
    const r = run({ uid: 0 });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([
      "apt-get DEBIAN_FRONTEND=noninteractive update",
      "apt-get DEBIAN_FRONTEND=noninteractive install -y --no-upgrade chromium",
    ]);
    expect(r.installed).toBe(true);
  });

  test("as a user with password-less sudo installs through sudo", () => {
    const r = run({ uid: 1000, sudo: "passwordless" });
    expect(r.code).toBe(0);
    expect(r.calls[0]).toBe("sudo -n true");
    expect(r.calls.slice(1)).toEqual([
      "sudo -n env DEBIAN_FRONTEND=noninteractive sh -c apt-get update && apt-get install -y --no-upgrade chromium",
      "apt-get DEBIAN_FRONTEND=noninteractive update",
      "apt-get DEBIAN_FRONTEND=noninteractive install -y --no-upgrade chromium",
    ]);
  });

  test("as a user without sudo prints exactly what to run and exits non-zero, installing nothing", () => {
    for (const fake of [{ uid: 1000 }, { uid: 1000, sudo: "password" as const }]) {
      const r = run(fake);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("missing Debian package(s): chromium");
      expect(r.stderr).toContain(`  ${MANUAL}\n`);
      expect(r.calls.filter((c) => c.startsWith("apt-get"))).toEqual([]);
    }
  });

  test("a failed apt-get or a machine without apt-get exits non-zero with what to do", () => {
    const failed = run({ uid: 0, aptFails: true });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`the install failed. Run this yourself, then bun run test:\n  ${MANUAL}`);
    const noApt = run({ uid: 0, apt: false });
    expect(noApt.code).toBe(1);
    expect(noApt.stderr).toContain("no apt-get on this machine; install chromium");
  });

  test("does nothing when chromium is already there", () => {
    const bin = mkdtempSync(join(tmpdir(), "cofre-tools-"));
    dirs.push(bin);
    writeFileSync(join(bin, "chromium"), "#!/bin/sh\n");
    chmodSync(join(bin, "chromium"), 0o755);
    const r = Bun.spawnSync(["/bin/bash", SCRIPT], { env: { PATH: bin }, stderr: "pipe" });
    expect(r.exitCode).toBe(0);
    expect(r.stderr.toString()).toBe("");
  });

  test("package.json's test script runs it before bun test", async () => {
    const pkg = await Bun.file(join(import.meta.dir, "../../package.json")).json();
    expect(pkg.scripts.test).toStartWith("bash scripts/test-tools.sh && bun test");
  });
});

describe("the shared Chromium launcher", () => {
  test("throws an error naming the install command when the binary is missing", () => {
    expect(() => chromiumPath({ CHROMIUM_PATH: "/nonexistent/chromium" })).toThrow(
      "Chromium is missing at /nonexistent/chromium, and the browser tests need it. Run `bun run test` (scripts/test-tools.sh installs it), or `sudo apt-get update && sudo apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary.",
    );
  });

  test("uses CHROMIUM_PATH when it exists", () => {
    const sh = Bun.which("sh")!;
    expect(chromiumPath({ CHROMIUM_PATH: sh })).toBe(sh);
  });
});
