import type { DbTx, Prisma } from "@/lib/db/client";

export async function createService(
  db: DbTx,
  data: { workspaceId: string; name: string; team: string | null; application: string | null; repository: string | null; policy: Prisma.InputJsonValue | undefined; checkDueAt: Date },
): Promise<void> {
  await db.service.create({ data });
}
