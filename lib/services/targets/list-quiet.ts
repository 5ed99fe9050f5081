// The agent targets that stopped reporting, for the banner over the pages that
// show versions: what they show is their last report, not what runs now.
import { listTargetReports } from "@/lib/db/queries/targets/list-target-reports";
import { targetStateOf } from "@/lib/domain/quiet";
import { requireRole, workspaceOf, type RequestCtx } from "../context";

export type QuietTarget = { name: string; environment: string; last_seen_at: string | null };

export async function listQuietTargets({ ctx }: { ctx: RequestCtx }): Promise<{ quietAfterMs: number; targets: QuietTarget[] }> {
  requireRole(ctx.actor, "viewer");
  const rows = await listTargetReports(ctx.db, workspaceOf(ctx.actor));
  const targets = rows
    .filter((t) => t.kind !== "compose_git" && targetStateOf(t.lastReportAt, ctx.now, ctx.config.quietAfterMs) === "quiet")
    .map((t) => ({ name: t.name, environment: t.environment, last_seen_at: t.lastReportAt?.toISOString() ?? null }));
  return { quietAfterMs: ctx.config.quietAfterMs, targets };
}
