// The workspace's watches of server Docker hosts with their state, for the settings and setup pages.
import { listDockerHostWatches as listRows } from "@/lib/db/queries/docker-host/list-docker-host-watches";
import { workspaceOf, type RequestCtx } from "../context";

/**
 * `waiting`: no run yet; `failing`: the last run met an error (its last good report is kept beside
 * it); `reporting`: the last run recorded a report; `quiet`: no process that reads the engine has run
 * it for QUIET_MS, so what it last said may be out of date; `stopped`: no longer watched.
 */
export type DockerHostWatchState = "waiting" | "failing" | "reporting" | "quiet" | "stopped";

/** Five agent intervals. */
export const QUIET_MS = 5 * 60_000;

export type DockerHostWatchOut = {
  id: string;
  engine_id: string;
  engine: string;
  target: string;
  environment: string;
  state: DockerHostWatchState;
  last_run_at: string | null;
  last_report_at: string | null;
  workloads: number | null;
  last_error: string | null;
};

export function watchState(w: { enabled: boolean; lastRunAt: Date | null; lastError: string | null; createdAt: Date }, now: Date): DockerHostWatchState {
  if (!w.enabled) return "stopped";
  if (now.getTime() - (w.lastRunAt ?? w.createdAt).getTime() > QUIET_MS) return "quiet";
  if (w.lastError !== null) return "failing";
  return w.lastRunAt ? "reporting" : "waiting";
}

export async function listDockerHostWatches({ ctx }: { ctx: RequestCtx }): Promise<{ items: DockerHostWatchOut[] }> {
  const rows = await listRows(ctx.db, workspaceOf(ctx.actor));
  return {
    items: rows.map((r) => ({
      id: r.id, engine_id: r.engineId, engine: r.engineName, target: r.targetName, environment: r.environment, state: watchState(r, ctx.now),
      last_run_at: r.lastRunAt?.toISOString() ?? null, last_report_at: r.lastReportAt?.toISOString() ?? null, workloads: r.workloads,
      last_error: r.lastError,
    })),
  };
}
