import type { DbTx, Prisma } from "@/lib/db/client";

/** False when an event with its dedupe key exists already. */
export async function createEvent(
  db: DbTx, event: { id: string; workspaceId: string; type: string; dedupeKey: string; payload: Prisma.InputJsonValue; createdAt: Date },
): Promise<boolean> {
  const written = await db.event.createMany({ data: [event], skipDuplicates: true });
  return written.count > 0;
}
