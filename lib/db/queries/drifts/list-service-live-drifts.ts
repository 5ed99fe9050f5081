import type { DbTx } from "@/lib/db/client";
import type { DriftKind } from "@/lib/domain/policy";

/** One service's active drift records with their environment's name. */
export async function listServiceLiveDrifts(db: DbTx, workspaceId: string, service: string): Promise<{ kind: DriftKind; state: "open" | "announced" | "resolved"; environment: { name: string } }[]> {
  return db.drift.findMany({
    where: { workspaceId, active: true, service: { name: service } },
    select: { kind: true, state: true, environment: { select: { name: true } } },
  });
}
