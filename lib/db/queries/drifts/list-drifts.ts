import type { DbTx } from "@/lib/db/client";
import type { DriftKind } from "@/lib/domain/policy";

export type DriftFilter = {
  state?: "open" | "announced" | "resolved";
  kind?: DriftKind;
  service?: string;
  environment?: string;
  limit?: number;
};

/** Drift records, live ones unless a state is asked for, newest first, with their service's and environment's names. */
export async function listDrifts(db: DbTx, workspaceId: string, query: DriftFilter) {
  return db.drift.findMany({
    where: {
      workspaceId,
      state: query.state ?? { in: ["open", "announced"] },
      ...(query.kind ? { kind: query.kind } : {}),
      ...(query.service ? { service: { name: query.service } } : {}),
      ...(query.environment ? { environment: { name: query.environment } } : {}),
    },
    orderBy: [{ openedAt: "desc" }, { id: "asc" }],
    ...(query.limit ? { take: query.limit } : {}),
    include: { service: { select: { name: true } }, environment: { select: { name: true } } },
  });
}
