import type { DbTx } from "@/lib/db/client";

/** A fetch that succeeded at `fetchedAt`; `etag` is left as stored when undefined (the forge answered "not modified"). */
export async function recordForgeFetch(db: DbTx, id: string, fetchedAt: Date, etag?: string | null): Promise<void> {
  await db.forgeRepository.update({ where: { id }, data: { etag, fetchedAt, lastError: null } });
}
