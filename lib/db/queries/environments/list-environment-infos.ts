import type { DbTx } from "@/lib/db/client";
import type { EnvironmentInfo } from "@/lib/domain/drift";

/** In pipeline order. */
export async function listEnvironmentInfos(db: DbTx, workspaceId: string): Promise<EnvironmentInfo[]> {
  return db.environment.findMany({
    where: { workspaceId },
    orderBy: [{ position: "asc" }, { name: "asc" }],
    select: { id: true, name: true, position: true, production: true },
  });
}
