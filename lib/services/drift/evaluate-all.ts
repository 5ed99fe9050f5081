// The scheduler's drift tick: evaluate every workspace that runs something or
// still has live drift (which must resolve once its services are gone), unless
// its last evaluation still holds (evaluation-marker.ts). A workspace another
// worker is evaluating is skipped (pg_try_advisory_xact_lock): its evaluation
// is already under way.
import { listWorkspacesToEvaluate } from "@/lib/db/queries/drifts/list-workspaces-to-evaluate";
import { log } from "@/lib/log";
import type { TickCtx } from "../context";
import { evaluateWorkspaceDrift, type EvaluationResult } from "./evaluate-workspace";
import { listUnchangedWorkspaces, rulesOf } from "./evaluation-marker";

/** `skipped`: held by another evaluation; `unchanged`: nothing written since the last one, and the clock changes nothing yet. */
export type EvaluateAllResult = { evaluated: EvaluationResult[]; skipped: number; unchanged: number; failed: number };

export { listWorkspacesToEvaluate };

export async function evaluateAll({ ctx: deps }: { ctx: TickCtx }): Promise<EvaluateAllResult> {
  const out: EvaluateAllResult = { evaluated: [], skipped: 0, unchanged: 0, failed: 0 };
  const workspaceIds = await listWorkspacesToEvaluate(deps.db);
  const unchanged = await listUnchangedWorkspaces(deps.db, workspaceIds, { rules: rulesOf(deps.config), now: deps.now });
  for (const workspaceId of workspaceIds) {
    if (unchanged.has(workspaceId)) {
      out.unchanged++;
      continue;
    }
    try {
      const result = await evaluateWorkspaceDrift({ ctx: { db: deps.db, config: deps.config, now: deps.now }, input: { workspaceId: workspaceId, wait: false } });
      if (result.skipped) out.skipped++;
      else out.evaluated.push(result);
    } catch (err) {
      // One broken workspace must not stop the others.
      out.failed++;
      log.warn(`drift evaluation of workspace ${workspaceId} failed: ${String(err)}`);
    }
  }
  return out;
}
