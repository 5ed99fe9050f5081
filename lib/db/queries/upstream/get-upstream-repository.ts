import type { DbTx } from "@/lib/db/client";

/** One upstream repository row, or null. */
export async function getUpstreamRepository(db: DbTx, id: string) {
  return db.upstreamRepository.findUnique({ where: { id } });
}
