import type { DbTx } from "@/lib/db/client";

/** A new environment at the end of the pipeline, for an admin to place. */
export async function createEnvironmentLast(db: DbTx, workspaceId: string, name: string) {
  const last = await db.environment.aggregate({ where: { workspaceId }, _max: { position: true } });
  return db.environment.create({ data: { workspaceId, name, position: (last._max.position ?? 0) + 10 } });
}
