import type { DbTx } from "@/lib/db/client";

/**
 * A run's outcome on its watch. `reportedAt` and `workloads` only when a report was recorded: a failed
 * run keeps the last good ones beside its error.
 */
export async function recordDockerHostRun(db: DbTx, id: string, run: { at: Date; reportedAt: Date | null; workloads: number | null; error: string | null }): Promise<void> {
  await db.dockerHostWatch.update({
    where: { id },
    data: { lastRunAt: run.at, lastError: run.error, ...(run.reportedAt ? { lastReportAt: run.reportedAt, workloads: run.workloads } : {}) },
  });
}
