import type { DbTx } from "@/lib/db/client";
import type { DriftKind } from "@/lib/domain/policy";

/** Active drift records of these kinds, in one environment when it is named. */
export async function listUpdateDrifts(db: DbTx, workspaceId: string, kinds: readonly DriftKind[], environment: string | undefined) {
  return db.drift.findMany({
    where: { workspaceId, active: true, kind: { in: [...kinds] }, ...(environment === undefined ? {} : { environment: { name: environment } }) },
    select: { serviceId: true, environmentId: true, kind: true, state: true, openedAt: true, running: true, expected: true },
  });
}
