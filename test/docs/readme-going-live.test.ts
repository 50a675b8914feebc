/**
 * The README's "Going live" runs as written: its shell block, taken from README.md, is run by bash
 * against `bun run dev` with the operator API on (an ephemeral port in place of 3000, another for
 * the simulator's 8443, a temporary folder for ./psp-sim) after the account of "Your first
 * charge" exists; the live charge ends `paid` through the simulator's callback and its refund ends
 * REFUNDED through a devolução at the simulator.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../foundation/process";
import { serverEnv } from "../support/backend";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "cofre-golive-"));
const simDir = join(dir, "psp-sim");
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  // The block starts the simulator in the background; it is found by its folder.
  Bun.spawnSync(["pkill", "-f", `psp-sim --dir ${simDir}`]);
  rmSync(dir, { recursive: true, force: true });
});

/** The first ```sh block under "## Going live". */
function goingLiveBlock(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Going live"));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error("README.md has no sh block under 'Going live'");
  return match[1]!;
}

/** A port that was free a moment ago (the service's public URL must name its port up front). */
function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

describe("README: Going live", () => {
  test("connects the simulated PSP, takes a live Pix and refunds it through a devolução", async () => {
    const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
    const init = Bun.spawnSync(
      [
        "bun",
        "src/main.ts",
        "init",
        "--email",
        "you@example.com",
        "--password",
        "choose-a-passphrase",
        "--account-name",
        "Minha Loja",
      ],
      {
        cwd: ROOT,
        env: { ...env, ...serverEnv(join(dir, "data")) },
      },
    );
    expect(init.exitCode).toBe(0);
    const port = freePort();
    const simPort = freePort();
    server = await startServer(["bun", "run", "dev"], {
      dataDir: join(dir, "data"),
      cwd: ROOT,
      env: {
        PORT: String(port),
        COFRE_OPERATOR_TOKEN: "local-operator-token",
        COFRE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
    });
    // The changes to the block: ports and folder; the simulator's start awaited before the
    // connection (a person types slower); the one-second pause replaced by a wait for `paid`.
    const block = goingLiveBlock();
    expect(block).toContain("--data @psp-sim/pix-provider.json");
    expect(block).toContain("sleep 1;");
    expect(block).toMatch(/--auto-settle > \S+ 2>&1 &\n/);
    const script = block
      .replaceAll("localhost:3000", `127.0.0.1:${port}`)
      .replaceAll("127.0.0.1:8443", `127.0.0.1:${simPort}`)
      .replace("psp-sim init ./psp-sim", `psp-sim init ./psp-sim --port ${simPort}`)
      .replaceAll("./psp-sim", simDir)
      .replaceAll("psp-sim/", `${simDir}/`)
      .replace(
        /(--auto-settle > \S+ 2>&1 &)\n/,
        `$1\nuntil (echo > /dev/tcp/127.0.0.1/${simPort}) 2>/dev/null; do sleep 0.05; done\n`,
      )
      .replace(
        "sleep 1;",
        `for i in $(seq 1 200); do curl -s 127.0.0.1:${port}/v1/charges/$CHARGE -H "apikey: $COFRE_LIVE_KEY" | grep -q '"status":"paid"' && break; sleep 0.05; done;`,
      );
    if (process.env.GOLIVE_DEBUG) await Bun.write(process.env.GOLIVE_DEBUG, script);
    const bash = Bun.spawn(
      ["bash", "-euo", "pipefail", "-c", `${script}\necho "CHARGE=$CHARGE"; echo "LIVE=$COFRE_LIVE_KEY"`],
      {
        cwd: ROOT,
        env: { ...env, ...serverEnv(join(dir, "data")) },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [stdout, stderr, code] = await Promise.all([
      new Response(bash.stdout).text(),
      new Response(bash.stderr).text(),
      bash.exited,
    ]);
    expect({ code, stderr, out: code === 0 ? "" : stdout }).toEqual({ code: 0, stderr: "", out: "" });
    // Step 2 printed the connection; step 4 the paid charge; step 5 the refund as created.
    expect(stdout).toContain('"webhook_registered":true');
    expect(stdout).toMatch(/"status":"paid"/);
    expect(stdout).toMatch(/"status":"PENDING"/);
    const charge = /CHARGE=(ch_[0-9a-f]+)/.exec(stdout)?.[1];
    const key = /LIVE=(ak_live_\S+)/.exec(stdout)?.[1];
    expect(charge).toBeDefined();
    expect(key).toBeDefined();

    // The devolução settles at the simulator (--auto-settle); the refund's job confirms it.
    const base = `http://127.0.0.1:${port}`;
    let refunds: { status: string; amount: number }[] = [];
    for (let i = 0; i < 300; i++) {
      const res = await fetch(`${base}/v1/payments/${charge}/refunds`, { headers: { apikey: key! } });
      refunds = ((await res.json()) as { data: { status: string; amount: number }[] }).data;
      if (refunds[0]?.status === "REFUNDED") break;
      await Bun.sleep(50);
    }
    expect(refunds.map((r) => [r.status, r.amount])).toEqual([["REFUNDED", 1990]]);
    const cobs = await fetch(`https://127.0.0.1:${simPort}/_sim/cobs`, {
      tls: {
        cert: readFileSync(join(simDir, "client.crt"), "utf8"),
        key: readFileSync(join(simDir, "client.key"), "utf8"),
        ca: readFileSync(join(simDir, "ca.crt"), "utf8"),
      },
    });
    const listed = (await cobs.json()) as { cobs?: { status: string }[] } | { status: string }[];
    const list = Array.isArray(listed) ? listed : (listed.cobs ?? []);
    expect(list.map((c) => c.status)).toEqual(["CONCLUIDA"]);
  }, 60_000);
});
