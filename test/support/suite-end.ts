/**
 * Teardown of the whole `bun test` run: bunfig.toml preloads this file, so its `afterAll` is
 * global and runs once after the last test file. Support modules that open something once per
 * process (the shared Chromium of test/support/browser.ts) register its closing here.
 */
import { afterAll } from "bun:test";

const tasks: (() => Promise<unknown>)[] = [];

/** Runs `task` after the last test file of this process (latest registered first). */
export function atSuiteEnd(task: () => Promise<unknown>): void {
  tasks.push(task);
}

afterAll(async () => {
  while (tasks.length) await tasks.pop()!();
});
