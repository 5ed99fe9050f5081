import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createEvaluationQueue } from "./evaluation-queue";

const TIMING = { quietMs: 200, maxDelayMs: 2_000, restFactor: 3 };

/** A queue whose evaluations take `durationMs` of fake time; `runs` records when each started and ended. */
function setup(durationMs = 100) {
  const runs: { workspace: string; deps: string; start: number; end?: number }[] = [];
  const t0 = Date.now();
  const queue = createEvaluationQueue<string, number>(async (workspace, deps) => {
    const run: (typeof runs)[number] = { workspace, deps, start: Date.now() - t0 };
    runs.push(run);
    await new Promise((resolve) => setTimeout(resolve, durationMs));
    run.end = Date.now() - t0;
    return runs.length;
  }, TIMING);
  return { queue, runs, at: () => Date.now() - t0 };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("createEvaluationQueue", () => {
  it("gives a burst of requests one evaluation, once the requests pause", async () => {
    const { queue, runs } = setup();
    const results = [];
    for (let i = 0; i < 10; i++) {
      results.push(queue.request("ws", `report ${i}`));
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(1_000);
    // The last request came at 450 ms: quiet from 650 ms. Its dependencies are the latest request's.
    expect(runs).toEqual([{ workspace: "ws", deps: "report 9", start: 650, end: 750 }]);
    expect(await Promise.all(results)).toEqual(Array(10).fill(1));
  });

  it("evaluates a steady stream no later than the longest delay after its first request", async () => {
    const { queue, runs } = setup();
    for (let i = 0; i < 60; i++) {
      void queue.request("ws", "report");
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(runs[0]!.start).toBe(2_000);
  });

  it("rests after an evaluation for a multiple of its duration before the next one a report asks for", async () => {
    const { queue, runs } = setup(400);
    void queue.request("ws", "first");
    await vi.advanceTimersByTimeAsync(300); // running 200–600 ms
    void queue.request("ws", "second"); // pending behind it
    await vi.advanceTimersByTimeAsync(1_950);
    expect(runs.map((r) => [r.start, r.end])).toEqual([[200, 600], [600 + 3 * 400, 600 + 4 * 400]]);

    // An idle workspace still rests: a request right after its evaluation waits too.
    void queue.request("ws", "third");
    await vi.advanceTimersByTimeAsync(100);
    void queue.request("ws", "fourth");
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs.map((r) => r.deps)).toEqual(["first", "second", "fourth"]);
    expect(runs[2]!.start).toBe(2_200 + 3 * 400);
  });

  it("starts an awaited evaluation at once, joining and hurrying the pending one", async () => {
    const { queue, runs, at } = setup();
    const requested = queue.request("ws", "report");
    await vi.advanceTimersByTimeAsync(50);
    const awaited = queue.now("ws", "check");
    expect(awaited).toBe(requested);
    await vi.advanceTimersByTimeAsync(100);
    expect(await awaited).toBe(1);
    expect(at()).toBe(150);
    expect(runs).toEqual([{ workspace: "ws", deps: "check", start: 50, end: 150 }]);
  });

  it("lets a read wait for the evaluation a report asked for, started at once", async () => {
    const { queue, runs } = setup();
    expect(await queue.settled("ws", 10_000)).toBe(false);
    void queue.request("ws", "report");
    const settled = queue.settled("ws", 10_000);
    await vi.advanceTimersByTimeAsync(100);
    expect(await settled).toBe(true);
    expect(runs).toEqual([{ workspace: "ws", deps: "report", start: 0, end: 100 }]);
  });

  it("queues an awaited evaluation behind the running one, which may have read before the caller's write", async () => {
    const { queue, runs } = setup();
    const first = queue.now("ws", "a");
    await vi.advanceTimersByTimeAsync(50);
    const second = queue.now("ws", "b");
    const third = queue.now("ws", "c");
    await vi.advanceTimersByTimeAsync(300);
    expect([await first, await second, await third]).toEqual([1, 2, 2]);
    expect(runs.map((r) => [r.deps, r.start])).toEqual([["a", 0], ["c", 100]]);
  });

  it("skips the scheduler's evaluation while one is running or pending", async () => {
    const { queue, runs } = setup();
    void queue.request("ws", "report");
    expect(queue.ifIdle("ws", "tick")).toBeNull();
    await vi.advanceTimersByTimeAsync(250); // running 200–300 ms
    expect(queue.ifIdle("ws", "tick")).toBeNull();
    await vi.advanceTimersByTimeAsync(100);
    const tick = queue.ifIdle("ws", "tick");
    expect(tick).not.toBeNull();
    await vi.advanceTimersByTimeAsync(100);
    expect(await tick).toBe(2);
    expect(runs.map((r) => r.deps)).toEqual(["report", "tick"]);
  });

  it("runs evaluations of different workspaces one at a time", async () => {
    const { queue, runs } = setup();
    const a = queue.now("a", "x");
    const b = queue.now("b", "y");
    await vi.advanceTimersByTimeAsync(200);
    await Promise.all([a, b]);
    expect(runs.map((r) => [r.workspace, r.start, r.end])).toEqual([["a", 0, 100], ["b", 100, 200]]);
  });

  it("passes a failure to those waiting, and evaluates again on the next request", async () => {
    let fail = true;
    const queue = createEvaluationQueue<string, string>(async () => {
      if (fail) throw new Error("database gone");
      return "ok";
    }, TIMING);
    await expect(queue.now("ws", "x")).rejects.toThrow("database gone");
    fail = false;
    await expect(queue.now("ws", "x")).resolves.toBe("ok");
  });
});
