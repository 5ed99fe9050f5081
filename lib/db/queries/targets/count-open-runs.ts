import type { DbTx } from "@/lib/db/client";

/** targetId → how many open history rows it has (what it runs now), counted by the (target, to) index. */
export async function countOpenRuns(db: DbTx, targetIds: string[]): Promise<Map<string, number>> {
  if (targetIds.length === 0) return new Map();
  const open = await db.run.groupBy({ by: ["targetId"], where: { targetId: { in: targetIds }, to: null }, _count: { _all: true } });
  return new Map(open.map((g) => [g.targetId, g._count._all] as const));
}
