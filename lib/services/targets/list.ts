// Targets: runtimes that agents report for, and Compose-in-Git targets that
// declare what should run, with how many workloads each runs now.
import { workspaceOf, type RequestCtx } from "../context";
import { toTargetOut, type TargetOut } from "./to-out";

export async function listTargets({ ctx }: { ctx: RequestCtx }): Promise<{ items: TargetOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await ctx.db.target.findMany({
    where: { workspaceId },
    orderBy: [{ environment: { position: "asc" } }, { name: "asc" }],
    include: { environment: { select: { name: true } } },
  });
  // What each target runs now: its open history rows, counted by the (target, to) index.
  const open = rows.length === 0 ? [] : await ctx.db.run.groupBy({ by: ["targetId"], where: { targetId: { in: rows.map((t) => t.id) }, to: null }, _count: { _all: true } });
  const workloads = new Map(open.map((g) => [g.targetId, g._count._all] as const));
  return { items: rows.map((t) => toTargetOut(t, workloads.get(t.id) ?? 0)) };
}
