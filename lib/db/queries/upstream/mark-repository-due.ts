import type { DbTx } from "@/lib/db/client";

export async function markRepositoryDue(db: DbTx, id: string, dueAt: Date): Promise<void> {
  await db.upstreamRepository.update({ where: { id }, data: { dueAt } });
}
