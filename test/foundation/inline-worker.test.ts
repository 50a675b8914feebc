/** Inline workers (src/lib/inline-worker.ts): request/reply by id, stray messages, errors, stop. */
import { describe, expect, test } from "bun:test";
import { startInlineWorker, type WorkerMessage } from "../../src/lib/inline-worker";

const ECHO = `
self.onmessage = (e) => {
  const m = e.data;
  if (m.type === "double") postMessage({ type: "doubled", id: m.id, value: m.value * 2 });
  else if (m.type === "fail") postMessage({ type: "error", id: m.id, message: "asked to fail" });
  else if (m.type === "shout") postMessage({ type: "shouted", text: m.text.toUpperCase() });
  else if (m.type === "complain") postMessage({ type: "error", message: "unprompted" });
  else if (m.type === "stop") postMessage({ type: "stopped" });
};
`;

describe("inline worker", () => {
  test("pairs each reply with its request, even when replies are awaited out of order", async () => {
    const w = startInlineWorker(ECHO);
    const a = w.request<WorkerMessage & { value: number }>({ type: "double", value: 2 });
    const b = w.request<WorkerMessage & { value: number }>({ type: "double", value: 21 });
    expect((await b).value).toBe(42);
    expect((await a).value).toBe(4);
    await w.stop();
  });

  test("an error reply rejects its request; stray messages and errors go to the handlers", async () => {
    const seen: string[] = [];
    const w = startInlineWorker(ECHO, {
      onMessage: (m) => seen.push(`${m.type}:${m.text}`),
      onError: (e) => seen.push(`error:${e}`),
    });
    await expect(w.request({ type: "fail" })).rejects.toThrow("asked to fail");
    w.post({ type: "shout", text: "oi" });
    w.post({ type: "complain" });
    await w.request({ type: "double", value: 1 }); // replies come in order: the strays arrived first
    expect(seen).toEqual(["shouted:OI", "error:unprompted"]);
    await w.stop();
  });

  test("stop is idempotent and rejects requests still waiting", async () => {
    const w = startInlineWorker(
      `self.onmessage = (e) => { if (e.data.type === "stop") postMessage({ type: "stopped" }); };`,
    );
    const never = w.request({ type: "ignored" });
    const first = w.stop();
    expect(w.stop()).toBe(first);
    await first;
    await expect(never).rejects.toThrow("worker stopped");
  });
});
