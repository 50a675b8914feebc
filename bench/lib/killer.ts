/**
 * The crash soaks' killer (bench/soak.ts, bench/soak-live.ts): SIGKILLs the server every 1-4 s
 * until 3 s before `until`, restarts it (three tries; a server that does not come back ends the
 * soak with exit 1), and keeps `up` pending while it is down so workers pause instead of piling
 * up refused connections.
 */
import type { CofreServer } from "./server";

export class CrashLoop {
  /** Resolves while the server is up; workers await it before each operation. */
  up: Promise<void> = Promise.resolve();
  kills = 0;

  constructor(
    private readonly server: CofreServer,
    /** Where failed restart attempts are noted. */
    private readonly notes: string[],
  ) {}

  async run(until: number): Promise<void> {
    while (Date.now() < until - 3_000) {
      await Bun.sleep(1_000 + Math.random() * 3_000);
      if (Date.now() >= until - 3_000) break;
      let release!: () => void;
      this.up = new Promise((r) => (release = r));
      await this.server.kill("SIGKILL");
      this.kills++;
      await Bun.sleep(50 + Math.random() * 200);
      let started = false;
      for (let i = 0; i < 3 && !started; i++) {
        try {
          await this.server.start(30_000);
          started = true;
        } catch (e) {
          this.notes.push(`restart attempt ${i + 1} failed: ${e}`);
          await this.server.kill("SIGKILL");
        }
      }
      if (!started) {
        console.log(`VIOLATION: the server did not restart; data dir ${this.server.dataDir}`);
        process.exit(1);
      }
      release();
    }
  }
}
