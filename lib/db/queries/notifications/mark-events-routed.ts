import type { DbTx } from "@/lib/db/client";

export async function markEventsRouted(db: DbTx, ids: string[], at: Date): Promise<void> {
  await db.$executeRaw`UPDATE events SET routed_at = ${at} WHERE id = ANY(${ids}::uuid[])`;
}
