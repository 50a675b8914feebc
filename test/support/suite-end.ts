/**
 * Teardown of the whole `bun test` run: bunfig.toml preloads this file, so its `afterAll` is
 * global: in one process (`bun test <files>`) it runs once after the last test file; in the
 * workers of `--parallel --no-isolate` (`bun run test`) bun 1.4.5 runs it after every file of the
 * worker (test/support/browser.ts keeps a worker's Chromium open past it on purpose). Support
 * modules that open something once per process register its closing here and open it again on
 * next use.
 */
import { afterAll } from "bun:test";

const tasks: (() => Promise<unknown>)[] = [];

/**
 * Runs `task` after the last test file of this process, or of this file in a parallel worker (latest registered first).
 */
export function atSuiteEnd(task: () => Promise<unknown>): void {
  tasks.push(task);
}

afterAll(async () => {
  while (tasks.length) await tasks.pop()!();
});
