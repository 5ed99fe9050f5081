import type { DbTx } from "@/lib/db/client";

export async function createEnvironment(db: DbTx, data: { workspaceId: string; name: string; position: number; production: boolean }) {
  return db.environment.create({ data, include: { _count: { select: { targets: true } } } });
}
