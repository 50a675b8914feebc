// sqlite-only: `cofre backup` and `restore` snapshot the embedded SQLite files (PostgreSQL is backed up with pg_dump)
/**
 * Backup and restore (extensions.md "Operations", issue 28 §1): the restore drill under load, then
 * the archive's own checks (secrets only when asked, damaged archives, non-empty folders).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../foundation/process";
import { serveWithTestKey } from "../support/serve";
import { cofre, ownerToken, ROOT } from "./support";

const RESTORE_FIELDS = ["created_at", "files", "ledger", "restored", "schema", "secrets_included"];
const BACKUP_FIELDS = ["backup", "bytes", "created_at", "files", "schema", "secrets_included"];
let n = 0;
const idem = (p: string) => `${p}-${++n}-${Math.random().toString(36).slice(2, 10)}`;

/** One write the server acknowledged, and when (performance.now(), ms). */
interface Ack {
  kind: "payment" | "paid" | "refund" | "payout";
  id: string;
  at: number;
  /** For refunds: the payment and the idempotency key and amount (a replay must answer the same refund). */
  paymentId?: string;
  key?: string;
}

describe("the restore drill", () => {
  test("a backup taken under a load of payments, refunds and payouts holds every write acknowledged before it began; the restore verifies the ledger and the restored instance serves", async () => {
    const s = await serveWithTestKey({ COFRE_TEST_CLOCK: "1" });
    const work = mkdtempSync(join(tmpdir(), "cofre-drill-"));
    let restoredServer: Awaited<ReturnType<typeof startServer>> | null = null;
    try {
      const base = s.server.base;
      // Money to refund and to pay out: paid payments, made available by a day of the test clock.
      const paid: string[] = [];
      for (let i = 0; i < 8; i++) {
        const p = await s.call("POST", "/v1/payments", {
          amount: 20_000,
          paymentMethods: ["PIX"],
          idempotencyKey: idem("seed"),
        });
        expect(p.status).toBe(201);
        expect((await s.call("POST", `/v1/test_helpers/charges/${p.body.id}/pay`, {})).status).toBe(200);
        paid.push(p.body.id);
      }
      expect((await s.call("POST", "/v1/test_helpers/clock/advance", { seconds: 86_400 })).status).toBe(200);
      const token = await ownerToken(base);
      const dest = await fetch(`${base}/v1/payout_destinations`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({
          type: "pix_key",
          pix_key_type: "email",
          pix_key: "owner@example.com",
          name: "Loja Drill",
        }),
      });
      expect(dest.status).toBe(201);
      const destinationId = ((await dest.json()) as { id: string }).id;
      // A stored file (MED evidence lives under <data>/files/med-evidence/<account>/<id>).
      const evidence = crypto.getRandomValues(new Uint8Array(4096));
      mkdirSync(join(s.dir, "files", "med-evidence", "acct_drill"), { recursive: true });
      writeFileSync(join(s.dir, "files", "med-evidence", "acct_drill", "evu_drill"), evidence);

      const acks: Ack[] = [];
      let stop = false;
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const p = await s.call("POST", "/v1/payments", {
            amount: 1000 + i,
            paymentMethods: ["PIX"],
            idempotencyKey: idem(`w${w}`),
          });
          expect(p.status).toBe(201);
          acks.push({ kind: "payment", id: p.body.id, at: performance.now() });
          expect((await s.call("POST", `/v1/test_helpers/charges/${p.body.id}/pay`, {})).status).toBe(200);
          acks.push({ kind: "paid", id: p.body.id, at: performance.now() });
          const target = paid[(w * 7 + i) % paid.length]!;
          const key = idem("refund");
          const r = await s.call("POST", `/v1/payments/${target}/refund`, { idempotencyKey: key, amount: 1 });
          expect(r.status).toBe(201);
          acks.push({ kind: "refund", id: r.body.id, at: performance.now(), paymentId: target, key });
          const po = await fetch(`${base}/v1/payouts`, {
            method: "POST",
            headers: { "content-type": "application/json", apikey: s.apiKey, "idempotency-key": idem("payout") },
            body: JSON.stringify({ amount: 100, destination_id: destinationId }),
          });
          expect(po.status).toBe(201);
          acks.push({ kind: "payout", id: ((await po.json()) as { id: string }).id, at: performance.now() });
        }
      };
      const workers = [0, 1, 2].map(worker);
      while (acks.length < 40) await Bun.sleep(5);

      const archive = join(work, "drill.tar.gz");
      const began = performance.now();
      const backup = await cofre(["backup", "--to", archive, "--include-secrets"], { COFRE_DATA_DIR: s.dir });
      const ended = performance.now();
      stop = true;
      await Promise.all(workers);
      expect(backup.stderr).toBe("");
      expect(backup.code).toBe(0);
      const line = JSON.parse(backup.stdout);
      expect(Object.keys(line).sort()).toEqual(BACKUP_FIELDS);
      expect(line.secrets_included).toBe(true);
      // The load really ran while the backup was being taken.
      expect(acks.filter((a) => a.at > began && a.at < ended).length).toBeGreaterThan(0);
      const before = acks.filter((a) => a.at < began);
      expect(new Set(before.map((a) => a.kind))).toEqual(new Set(["payment", "paid", "refund", "payout"]));

      const target = join(work, "restored");
      const restore = await cofre(["restore", archive, "--data-dir", target], {});
      expect(restore.code).toBe(0);
      const report = JSON.parse(restore.stdout);
      expect(Object.keys(report).sort()).toEqual(RESTORE_FIELDS);
      expect(report.ledger.ok).toBe(true);
      expect(report.ledger.checked).toBeGreaterThan(0);
      expect(report.ledger.mismatches).toEqual([]);
      expect(report.secrets_included).toBe(true);
      expect(readdirSync(target).sort()).toEqual(["cofre.db", "files", "request-log.db", "secrets.key"]);
      expect(readFileSync(join(target, "secrets.key"))).toEqual(readFileSync(join(s.dir, "secrets.key")));
      expect(new Uint8Array(readFileSync(join(target, "files", "med-evidence", "acct_drill", "evu_drill")))).toEqual(
        evidence,
      );
      await s.server.stop();

      restoredServer = await startServer(["bun", "src/main.ts", "serve"], {
        dataDir: target,
        cwd: ROOT,
        env: { COFRE_TEST_CLOCK: "1" },
        timeoutMs: 20_000,
      });
      const rb = restoredServer.base;
      const get = async (path: string) => {
        const r = await fetch(`${rb}${path}`, { headers: { apikey: s.apiKey } });
        return { status: r.status, body: (await r.json()) as any };
      };
      expect((await fetch(`${rb}/readyz`)).status).toBe(200);
      const missing: string[] = [];
      for (const a of before) {
        if (a.kind === "payment" && (await get(`/v1/payments/${a.id}`)).status !== 200) missing.push(`payment ${a.id}`);
        if (a.kind === "paid") {
          const g = await get(`/v1/payments/${a.id}`);
          if (g.status !== 200 || g.body.paidAt === null) missing.push(`payment of ${a.id}`);
        }
        if (a.kind === "payout" && (await get(`/v1/payouts/${a.id}`)).status !== 200) missing.push(`payout ${a.id}`);
        if (a.kind === "refund") {
          // Replaying its idempotency key answers the stored refund (a lost one would be created anew).
          const r = await fetch(`${rb}/v1/payments/${a.paymentId}/refund`, {
            method: "POST",
            headers: { "content-type": "application/json", apikey: s.apiKey },
            body: JSON.stringify({ idempotencyKey: a.key, amount: 1 }),
          });
          if (((await r.json()) as { id?: string }).id !== a.id) missing.push(`refund ${a.id}`);
        }
      }
      expect(missing).toEqual([]);
      // The request log came along: the restored owner sees requests made before the backup.
      const logs = await fetch(`${rb}/v1/request-logs?limit=100`, {
        headers: { authorization: `Bearer ${await ownerToken(rb)}` },
      });
      expect(logs.status).toBe(200);
      expect(((await logs.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    } finally {
      await restoredServer?.stop();
      await s.close();
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("cofre backup and restore of a stopped instance", () => {
  let work: string;
  let dataDir: string;
  let plain: string;
  let withSecrets: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "cofre-backup-"));
    dataDir = join(work, "data");
    const init = await cofre(["init", "--email", "owner@example.com", "--password", "a long passphrase"], {
      COFRE_DATA_DIR: dataDir,
    });
    expect(init.code).toBe(0);
    mkdirSync(join(dataDir, "files", "med-evidence", "acct_x"), { recursive: true });
    writeFileSync(join(dataDir, "files", "med-evidence", "acct_x", "evu_1"), "evidence bytes");
    plain = join(work, "plain.tar");
    withSecrets = join(work, "secrets.tar.gz");
    expect((await cofre(["backup", "--to", plain], { COFRE_DATA_DIR: dataDir })).code).toBe(0);
    expect((await cofre(["backup", "--to", withSecrets, "--include-secrets"], { COFRE_DATA_DIR: dataDir })).code).toBe(
      0,
    );
  }, 60_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  test("without --include-secrets the archive has the database and stored files but no secrets.key, and restore says so", async () => {
    const target = join(work, "r-plain");
    const r = await cofre(["restore", plain, "--data-dir", target], {});
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).secrets_included).toBe(false);
    expect(r.stderr).toContain("the backup holds no secrets.key");
    expect(readdirSync(target).sort()).toEqual(["cofre.db", "files"]);
    expect(readFileSync(join(target, "files", "med-evidence", "acct_x", "evu_1"), "utf8")).toBe("evidence bytes");
  }, 30_000);

  test("with --include-secrets the restored folder has the same secrets.key", async () => {
    const target = join(work, "r-secrets");
    const r = await cofre(["restore", withSecrets, "--data-dir", target], {});
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout).secrets_included).toBe(true);
    expect(readFileSync(join(target, "secrets.key"), "utf8")).toBe(readFileSync(join(dataDir, "secrets.key"), "utf8"));
  }, 30_000);

  test("a corrupted archive is refused with a clear message, exit 1, and nothing is written", async () => {
    const bytes = readFileSync(plain);
    const bad = join(work, "bad.tar");
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff; // inside cofre.db's bytes
    writeFileSync(bad, bytes);
    const target = join(work, "r-bad");
    const r = await cofre(["restore", bad, "--data-dir", target], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^cofre restore: .*bad\.tar is damaged: checksum mismatch for cofre\.db .*nothing was restored\n$/,
    );
    expect(r.stdout).toBe("");
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(work).filter((f) => f.startsWith(".cofre-restore-"))).toEqual([]);
  }, 30_000);

  test("a truncated archive is refused and an empty target folder stays empty", async () => {
    const cut = join(work, "cut.tar.gz");
    const whole = readFileSync(withSecrets);
    writeFileSync(cut, whole.subarray(0, whole.length >> 1));
    const target = join(work, "r-cut");
    mkdirSync(target);
    const r = await cofre(["restore", cut, "--data-dir", target], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^cofre restore: .*cut\.tar\.gz is damaged or not a Cofre backup \(.+\); nothing was restored\n$/,
    );
    expect(readdirSync(target)).toEqual([]);
  }, 30_000);

  test("a folder that is not empty is refused and left as it was", async () => {
    const target = join(work, "r-busy");
    mkdirSync(target);
    writeFileSync(join(target, "keep.txt"), "mine");
    const r = await cofre(["restore", plain, "--data-dir", target], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`cofre restore: ${target} is not empty: restore into an empty (or new) folder\n`);
    expect(readdirSync(target)).toEqual(["keep.txt"]);
  }, 30_000);

  test("on PostgreSQL cofre backup points at pg_dump and exits 2", async () => {
    const r = await cofre(["backup", "--to", join(work, "pg.tar")], {
      COFRE_DATABASE_URL: "postgres://cofre@127.0.0.1:1/cofre",
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'cofre backup: this instance uses PostgreSQL (COFRE_DATABASE_URL); back it up with pg_dump (docs/deploy.md, "Backup and restore")\n',
    );
    expect(existsSync(join(work, "pg.tar"))).toBe(false);
  }, 30_000);

  test("backup without --to and restore without --data-dir print their usage and exit 2", async () => {
    const b = await cofre(["backup"], { COFRE_DATA_DIR: dataDir });
    expect([b.code, b.stderr]).toEqual([
      2,
      "usage: cofre backup --to FILE [--include-secrets]   (FILE ending in .gz or .tgz is gzip-compressed)\n",
    ]);
    const r = await cofre(["restore", plain], {});
    expect([r.code, r.stderr]).toEqual([2, "usage: cofre restore FILE --data-dir DIR\n"]);
  }, 30_000);

  test("a folder without a database is refused with exit 1 and no archive", async () => {
    const r = await cofre(["backup", "--to", join(work, "none.tar")], { COFRE_DATA_DIR: join(work, "nothing-here") });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `cofre backup: no database at ${join(work, "nothing-here", "cofre.db")} (set COFRE_DATA_DIR to the data folder)\n`,
    );
    expect(existsSync(join(work, "none.tar"))).toBe(false);
  }, 30_000);

  test("migrate --dry-run on a folder without a database lists every migration and creates nothing", async () => {
    const dir = join(work, "fresh");
    const r = await cofre(["migrate", "--dry-run"], { COFRE_DATA_DIR: dir });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(["database", "dry_run", "pending"]);
    expect(out.pending[0]).toBe("0000_init");
    expect(existsSync(dir)).toBe(false);
  }, 30_000);
});
