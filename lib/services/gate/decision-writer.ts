// Decisions are written in one statement per batch: a review arriving while a
// write is in flight waits for it, then goes out with every other review that
// arrived meanwhile. Under a wave of rollouts the webhook then costs
// PostgreSQL one write per batch, not per review, and never answers before its
// decision is logged.
import type { DbTx } from "@/lib/db/client";
import { recordGateDecisions, type GateDecisionRecord } from "@/lib/db/queries/gate/record-gate-decisions";

type Waiting = { record: GateDecisionRecord; done: (err?: unknown) => void };
type Queue = { waiting: Waiting[]; writing: boolean };

// By client: a test's database, or a transaction, is never written with another's records.
const queues = new WeakMap<object, Queue>();

/** Resolves once `record` is committed; rejects when its own write failed. */
export function writeGateDecision(db: DbTx, record: GateDecisionRecord): Promise<void> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = { waiting: [], writing: false }));
  const q = queue;
  return new Promise((resolve, reject) => {
    q.waiting.push({ record, done: (err) => (err === undefined ? resolve() : reject(err)) });
    if (!q.writing) void drain(db, q);
  });
}

async function drain(db: DbTx, q: Queue): Promise<void> {
  q.writing = true;
  try {
    while (q.waiting.length > 0) {
      const batch = q.waiting.splice(0);
      try {
        await recordGateDecisions(db, batch.map((w) => w.record));
        for (const w of batch) w.done();
      } catch (err) {
        if (batch.length === 1) batch[0]!.done(err);
        // One record's fault fails only that record's request: the others are written alone.
        else for (const w of batch) await recordGateDecisions(db, [w.record]).then(() => w.done(), (e: unknown) => w.done(e));
      }
    }
  } finally {
    q.writing = false;
  }
}
