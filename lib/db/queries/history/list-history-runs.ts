import type { DbTx } from "@/lib/db/client";

/** Main history rows, newest first, of a service and/or environment, open or ended since `since`. */
export async function listHistoryRuns(db: DbTx, workspaceId: string, filter: { serviceId?: string; environmentId?: string; since: Date | null; limit: number }) {
  const { serviceId, environmentId, since } = filter;
  return db.run.findMany({
    where: {
      workspaceId,
      isMain: true,
      ...(serviceId ? { serviceId } : {}),
      ...(environmentId ? { environmentId } : {}),
      ...(since ? { OR: [{ to: null }, { to: { gte: since } }] } : {}),
    },
    orderBy: [{ from: "desc" }, { id: "desc" }],
    take: filter.limit,
    select: { tag: true, version: true, digest: true, declared: true, from: true, to: true, serviceId: true, environmentId: true, targetId: true },
  });
}
