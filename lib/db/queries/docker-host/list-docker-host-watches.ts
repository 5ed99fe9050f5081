import type { DbTx } from "@/lib/db/client";

export type DockerHostWatchRow = {
  id: string;
  engineId: string;
  engineName: string;
  targetName: string;
  environment: string;
  enabled: boolean;
  lastRunAt: Date | null;
  lastReportAt: Date | null;
  workloads: number | null;
  lastError: string | null;
  createdBy: string;
  createdAt: Date;
};

/** The workspace's watches of server Docker hosts, enabled first, newest first. */
export async function listDockerHostWatches(db: DbTx, workspaceId: string): Promise<DockerHostWatchRow[]> {
  const rows = await db.dockerHostWatch.findMany({
    where: { workspaceId },
    include: { environment: { select: { name: true } } },
    orderBy: [{ enabled: "desc" }, { createdAt: "desc" }],
  });
  return rows.map((r) => ({
    id: r.id, engineId: r.engineId, engineName: r.engineName, targetName: r.targetName, environment: r.environment.name, enabled: r.enabled,
    lastRunAt: r.lastRunAt, lastReportAt: r.lastReportAt, workloads: r.workloads, lastError: r.lastError, createdBy: r.createdBy, createdAt: r.createdAt,
  }));
}
