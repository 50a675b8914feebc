/**
 * `SchedulerDeps`: the domain's Deps (src/domain/deps.ts) whose `jobs` is the scheduler itself, for
 * the code that runs the queue rather than only enqueues into it: the composition root (src/deps.ts
 * builds one; `cofre serve`, src/cli/serve.ts, starts and stops the loop) and the test clock's
 * advance (./advance.ts, the route src/http/routes/test-helpers/clock.ts).
 */
import type { Deps } from "../domain/deps";
import type { Scheduler } from "./scheduler";

export interface SchedulerDeps extends Deps {
  jobs: Scheduler;
}
