import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { cachedInsight, covers, INSIGHT_WRITES_KEPT_MS, INSIGHTS_CACHE_TTL_MS, parseSnapshot } from "./insights-cache";

/** A database whose transaction snapshot the test moves, and a clock it sets. */
function fakeCtx() {
  // `unchanged`: what the check against insight_writes answers; `checks` counts them.
  const state = { snapshot: "100:100:", now: 1_000_000, failing: false, unchanged: false, checks: 0 };
  const db = {
    $queryRaw: async (sql: TemplateStringsArray) => {
      if (state.failing) throw new Error("recovery is in progress");
      if (sql.join("?").includes("insight_writes")) {
        state.checks++;
        return [{ unchanged: state.unchanged }];
      }
      return [{ snapshot: state.snapshot }];
    },
  } as unknown as Db;
  return { state, ctx: { db, get now() { return new Date(state.now); } } };
}

function counter() {
  let calls = 0;
  return { compute: async () => ({ n: ++calls }), calls: () => calls };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

/** A computation whose first call waits for `release()`; later calls answer at once. */
function gated() {
  let n = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const compute = async () => {
    const call = ++n;
    if (call === 1) await gate;
    return { n: call };
  };
  return { compute, release, calls: () => n };
}

describe("cachedInsight", () => {
  it("reuses a result while the database position is the same", async () => {
    const { ctx } = fakeCtx();
    const c = counter();
    const key = randomUUID();
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 1 });
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 1 });
    expect(c.calls()).toBe(1);
  });

  it("recomputes at once when the database changed", async () => {
    const { ctx, state } = fakeCtx();
    const c = counter();
    const key = randomUUID();
    await cachedInsight(ctx, key, c.compute);
    state.snapshot = "100:101:";
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 2 });
  });

  it("shares one computation between concurrent requests", async () => {
    const { ctx } = fakeCtx();
    const c = counter();
    const key = randomUUID();
    const results = await Promise.all([1, 2, 3, 4].map(() => cachedInsight(ctx, key, c.compute)));
    expect(results.map((r) => r.n)).toEqual([1, 1, 1, 1]);
    expect(c.calls()).toBe(1);
  });

  it("past its life, answers the old result once while a fresh one is computed", async () => {
    const { ctx, state } = fakeCtx();
    const c = counter();
    const key = randomUUID();
    await cachedInsight(ctx, key, c.compute);
    state.now += INSIGHTS_CACHE_TTL_MS;
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 1 });
    await settle();
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 2 });
    expect(c.calls()).toBe(2);
  });

  it("recomputes a result that names when the clock changes it at that instant (answering it no longer), not on the TTL; never when it names none", async () => {
    const { ctx, state } = fakeCtx();
    const c = counter();
    const key = randomUUID();
    const validUntil = (v: { n: number }, at: number) => (v.n === 1 ? at + 5 * INSIGHTS_CACHE_TTL_MS : null);
    await cachedInsight(ctx, key, c.compute, { validUntil });
    state.now += 5 * INSIGHTS_CACHE_TTL_MS - 1;
    await cachedInsight(ctx, key, c.compute, { validUntil });
    await settle();
    expect(c.calls()).toBe(1);
    state.now += 1;
    // Wrong from that instant: not answered once more while recomputing.
    expect(await cachedInsight(ctx, key, c.compute, { validUntil })).toEqual({ n: 2 });
    state.now += 1000 * INSIGHTS_CACHE_TTL_MS;
    await cachedInsight(ctx, key, c.compute, { validUntil });
    await settle();
    expect(c.calls()).toBe(2);
  });

  it("checks a result against the noted writes as long as each check is recent: a confirmed result is not recomputed for its age", async () => {
    const { ctx, state } = fakeCtx();
    const c = counter();
    const key = randomUUID();
    const never = { validUntil: () => null };
    await cachedInsight(ctx, key, c.compute, never);
    state.unchanged = true;
    // Other transactions move the snapshot; each check, less than half the noted writes' reach apart, confirms it.
    for (let i = 1; i <= 4; i++) {
      state.now += INSIGHT_WRITES_KEPT_MS / 2 - 1;
      state.snapshot = `100:${100 + i}:`;
      expect(await cachedInsight(ctx, key, c.compute, never)).toEqual({ n: 1 });
    }
    expect(state.checks).toBe(4);
    expect(c.calls()).toBe(1);
  });

  it("reads which transactions finished: a result covers a request when it sees at least as many", () => {
    const snap = (t: string) => parseSnapshot(t)!;
    expect(snap("5:9:5,7")).toEqual({ xmin: 5n, xmax: 9n, running: [5n, 7n], text: "5:9:5,7" });
    expect(parseSnapshot("not a snapshot")).toBeNull();
    expect(covers(snap("10:12:"), snap("10:10:"))).toBe(true);
    expect(covers(snap("10:10:"), snap("10:12:"))).toBe(false);
    // 7 was running for the request and still is: covered. 7 had finished for the request: not.
    expect(covers(snap("7:12:7"), snap("5:9:5,7"))).toBe(true);
    expect(covers(snap("7:12:7"), snap("8:9:"))).toBe(false);
    // Transactions that began after the request's snapshot may still run.
    expect(covers(snap("9:12:10,11"), snap("9:9:"))).toBe(true);
  });

  it("answers a request with a result computed after it read its snapshot, and recomputes after a commit it saw", async () => {
    const { ctx, state } = fakeCtx();
    const c = counter();
    const key = randomUUID();
    state.snapshot = "200:205:203";
    await cachedInsight({ ...ctx, snapshot: "200:204:203" }, key, c.compute);
    expect(await cachedInsight({ ...ctx, snapshot: "200:205:203" }, key, c.compute)).toEqual({ n: 1 });
    // 203 committed before this request's snapshot: the result (read while 203 ran) does not cover it.
    state.snapshot = "205:205:";
    expect(await cachedInsight({ ...ctx, snapshot: "205:205:" }, key, c.compute)).toEqual({ n: 2 });
  });

  it("computes a key once at a time: a burst of newer snapshots waits and shares one follow-up", async () => {
    const { ctx, state } = fakeCtx();
    const key = randomUUID();
    const { compute, release, calls } = gated();
    state.snapshot = "10:10:";
    const first = cachedInsight({ ...ctx, snapshot: "10:10:" }, key, compute);
    await settle();
    // Twenty requests, each having seen more transactions finish after the first computation began.
    const burst = Array.from({ length: 20 }, (_, i) => cachedInsight({ ...ctx, snapshot: `${11 + i}:${11 + i}:` }, key, compute));
    await settle();
    expect(calls()).toBe(1);
    state.snapshot = "31:31:";
    release();
    expect(await first).toEqual({ n: 1 });
    expect((await Promise.all(burst)).map((r) => r.n)).toEqual(Array(20).fill(2));
    expect(calls()).toBe(2);
    expect(await cachedInsight({ ...ctx, snapshot: "30:30:" }, key, compute)).toEqual({ n: 2 });
  });

  it("answers a result across transactions that wrote nothing insights show: one check per snapshot, then relabelled", async () => {
    const { ctx, state } = fakeCtx();
    const c = counter();
    const key = randomUUID();
    await cachedInsight(ctx, key, c.compute);
    state.snapshot = "100:103:";
    state.unchanged = true;
    const burst = await Promise.all([1, 2, 3].map(() => cachedInsight(ctx, key, c.compute)));
    expect(burst.map((r) => r.n)).toEqual([1, 1, 1]);
    expect(state.checks).toBe(1);
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 1 });
    expect(state.checks).toBe(1); // the result now carries the newer snapshot
    expect(c.calls()).toBe(1);
  });

  it("lets a burst that read a newer snapshot share the running computation after one check, when nothing noted finished", async () => {
    const { ctx, state } = fakeCtx();
    const key = randomUUID();
    const { compute, release, calls } = gated();
    const first = cachedInsight(ctx, key, compute);
    await settle();
    state.unchanged = true;
    const burst = Array.from({ length: 5 }, () => cachedInsight({ ...ctx, snapshot: "100:104:" }, key, compute));
    await settle();
    release();
    expect((await Promise.all([first, ...burst])).map((r) => r.n)).toEqual(Array(6).fill(1));
    expect(calls()).toBe(1);
    expect(state.checks).toBe(1);
  });

  it("recomputes when a noted write finished in between, and does not check a result older than the noted writes reach", async () => {
    const { ctx, state } = fakeCtx();
    const c = counter();
    const key = randomUUID();
    await cachedInsight(ctx, key, c.compute);
    state.snapshot = "100:101:";
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 2 });
    state.unchanged = true;
    state.now += INSIGHT_WRITES_KEPT_MS / 2 + 1;
    state.snapshot = "100:102:";
    const checks = state.checks;
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 3 });
    expect(state.checks).toBe(checks);
  });

  it("keeps no failure, and computes every time where the position cannot be read", async () => {
    const { ctx, state } = fakeCtx();
    const key = randomUUID();
    await expect(cachedInsight(ctx, key, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    const c = counter();
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 1 });
    state.failing = true;
    await cachedInsight(ctx, key, c.compute);
    await cachedInsight(ctx, key, c.compute);
    expect(c.calls()).toBe(3);
  });
});
