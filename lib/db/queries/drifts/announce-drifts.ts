import { Prisma, type SqlTx } from "@/lib/db/client";

/** Open records become announced at `now`. */
export async function announceDrifts(tx: SqlTx, ids: readonly string[], now: Date): Promise<void> {
  await tx.execute(Prisma.sql`
      UPDATE drifts SET state = 'announced', announced_at = ${now}, updated_at = ${now}
      WHERE id = ANY(${ids}::uuid[]) AND state = 'open'`);
}
