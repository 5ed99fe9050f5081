import type { DbTx } from "@/lib/db/client";

export type DockerHostWatchInput = { workspaceId: string; environmentId: string; engineId: string; engineName: string; targetName: string; createdBy: string; now: Date };

/**
 * Watch an engine for a workspace (again): enabled and due at once. A watch turned back on keeps its
 * last run and report; its last error is cleared, since the next run will say.
 */
export async function upsertDockerHostWatch(db: DbTx, w: DockerHostWatchInput): Promise<{ id: string }> {
  const data = { environmentId: w.environmentId, engineName: w.engineName, targetName: w.targetName, enabled: true, dueAt: w.now, lastError: null };
  return db.dockerHostWatch.upsert({
    where: { workspaceId_engineId: { workspaceId: w.workspaceId, engineId: w.engineId } },
    create: { ...data, workspaceId: w.workspaceId, engineId: w.engineId, createdBy: w.createdBy, createdAt: w.now },
    update: data,
    select: { id: true },
  });
}
