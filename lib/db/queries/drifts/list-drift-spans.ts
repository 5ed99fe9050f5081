import type { DbTx } from "@/lib/db/client";

/** Drift opened by `now` and open at or after `start`: kind and when it opened and resolved. */
export async function listDriftSpans(db: DbTx, workspaceId: string, start: Date, now: Date) {
  return db.drift.findMany({
    where: { workspaceId, openedAt: { lte: now }, OR: [{ resolvedAt: null }, { resolvedAt: { gte: start } }] },
    select: { kind: true, openedAt: true, resolvedAt: true },
  });
}
