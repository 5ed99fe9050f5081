// Targets: runtimes that agents report for, and Compose-in-Git targets that
// declare what should run, with how many workloads each runs now.
import { countOpenRuns } from "@/lib/db/queries/targets/count-open-runs";
import { listTargets as readTargets } from "@/lib/db/queries/targets/list-targets";
import { workspaceOf, type RequestCtx } from "../context";
import { toTargetOut, type TargetOut } from "./to-out";

export async function listTargets({ ctx }: { ctx: RequestCtx }): Promise<{ items: TargetOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await readTargets(ctx.db, workspaceId);
  // What each target runs now: its open history rows.
  const workloads = await countOpenRuns(ctx.db, rows.map((t) => t.id));
  return { items: rows.map((t) => toTargetOut(t, workloads.get(t.id) ?? 0)) };
}
