// When a workspace's drift is evaluated in this process. Per workspace: one
// evaluation running and at most one pending behind it. A pending evaluation
// that only reports asked for waits for the burst to pass and for the
// previous evaluation's rest; one that somebody awaits starts as soon as it can.

export type QueueTiming = {
  /** A requested evaluation waits until no report has asked for this long, so a burst of reports shares one... */
  quietMs: number;
  /** ...but waits no longer than this after the first request, so a steady stream still sees its drift. */
  maxDelayMs: number;
  /** After an evaluation, the next requested one waits this many times its duration: at most 1 / (1 + rest) of the time. */
  restFactor: number;
};

export type EvaluationQueue<D, R> = {
  /** Ask for an evaluation without waiting for it (report intake): it starts when `QueueTiming` allows. */
  request: (workspaceId: string, deps: D) => Promise<R>;
  /** An evaluation that starts as soon as the running one ends (joining the pending one, which it hurries). */
  now: (workspaceId: string, deps: D) => Promise<R>;
  /** Start now unless one is running or pending (the scheduler's tick): null when skipped. */
  ifIdle: (workspaceId: string, deps: D) => Promise<R> | null;
  /** Wait (at most `maxMs`) for the workspace's pending or running evaluation, hurrying the pending one. True when there was one. */
  settled: (workspaceId: string, maxMs: number) => Promise<boolean>;
};

type Waiting<D> = { deps: D; firstAt: number; lastAt: number; hurried: boolean; wake: () => void };
type Pending<D, R> = Waiting<D> & { result: Promise<R> };
type Slot<D, R> = { running: Promise<R> | null; endedAt: number; durationMs: number; pending: Pending<D, R> | null };

const ignore = () => undefined;

function hurry(waiting: Waiting<unknown>): void {
  waiting.hurried = true;
  waiting.wake();
}

/**
 * `run` evaluates one workspace. Evaluations of all workspaces run one at a
 * time in this process: each holds a transaction's connection while its reads
 * run on others, so evaluations can never drain the pool waiting for their own reads.
 */
export function createEvaluationQueue<D, R>(run: (workspaceId: string, deps: D) => Promise<R>, timing: QueueTiming, clock: () => number = Date.now): EvaluationQueue<D, R> {
  const slots = new Map<string, Slot<D, R>>();
  let turn: Promise<unknown> = Promise.resolve();

  function launch(slot: Slot<D, R>, workspaceId: string, deps: D): Promise<R> {
    const result = turn.then(ignore, ignore).then(async () => {
      const startedAt = clock();
      try {
        return await run(workspaceId, deps);
      } finally {
        slot.endedAt = clock();
        slot.durationMs = slot.endedAt - startedAt;
      }
    });
    turn = result;
    slot.running = result;
    void result.then(ignore, ignore).then(() => {
      if (slot.running !== result) return;
      slot.running = null;
      forgetWhenRested(workspaceId, slot);
    });
    return result;
  }

  /** An idle slot is kept through its rest, so a request right after an evaluation still waits it out. */
  function forgetWhenRested(workspaceId: string, slot: Slot<D, R>): void {
    if (slot.running !== null || slot.pending !== null) return;
    const rest = slot.endedAt + timing.restFactor * slot.durationMs - clock();
    if (rest <= 0) {
      if (slots.get(workspaceId) === slot) slots.delete(workspaceId);
      return;
    }
    setTimeout(() => forgetWhenRested(workspaceId, slot), rest).unref();
  }

  /** When a pending evaluation nobody awaits may start. */
  function startAt(slot: Slot<D, R>, p: Waiting<D>): number {
    const burstOver = Math.min(p.lastAt + timing.quietMs, p.firstAt + timing.maxDelayMs);
    return Math.max(burstOver, slot.endedAt + timing.restFactor * slot.durationMs);
  }

  function pend(workspaceId: string, deps: D): { slot: Slot<D, R>; pending: Pending<D, R> } {
    let slot = slots.get(workspaceId);
    if (slot === undefined) slots.set(workspaceId, (slot = { running: null, endedAt: 0, durationMs: 0, pending: null }));
    const at = clock();
    if (slot.pending !== null) {
      // The latest request's dependencies: its clock reading is the nearest to when the evaluation starts.
      slot.pending.deps = deps;
      slot.pending.lastAt = at;
      return { slot, pending: slot.pending };
    }
    const s = slot;
    const waiting: Waiting<D> = { deps, firstAt: at, lastAt: at, hurried: false, wake: ignore };
    const result = (s.running ?? Promise.resolve()).then(ignore, ignore).then(async () => {
      for (let wait = startAt(s, waiting) - clock(); !waiting.hurried && wait > 0; wait = startAt(s, waiting) - clock()) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          waiting.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      s.pending = null;
      return launch(s, workspaceId, waiting.deps);
    });
    // The same object the loop reads: later requests move its deadline and hurry it.
    slot.pending = Object.assign(waiting, { result });
    return { slot, pending: slot.pending };
  }

  return {
    request: (workspaceId, deps) => pend(workspaceId, deps).pending.result,
    now: (workspaceId, deps) => {
      const { pending } = pend(workspaceId, deps);
      hurry(pending);
      return pending.result;
    },
    ifIdle: (workspaceId, deps) => {
      let slot = slots.get(workspaceId);
      if (slot !== undefined && (slot.running !== null || slot.pending !== null)) return null;
      if (slot === undefined) slots.set(workspaceId, (slot = { running: null, endedAt: 0, durationMs: 0, pending: null }));
      return launch(slot, workspaceId, deps);
    },
    settled: async (workspaceId, maxMs) => {
      const slot = slots.get(workspaceId);
      if (slot?.pending) hurry(slot.pending);
      const awaited = slot?.pending?.result ?? slot?.running;
      if (!awaited) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([awaited.then(ignore, ignore), new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs).unref()))]);
      clearTimeout(timer);
      return true;
    },
  };
}
