import { Prisma, type SqlTx } from "@/lib/db/client";

/** Live records end, each at its own time. */
export async function resolveDrifts(tx: SqlTx, records: readonly { id: string; resolvedAt: Date }[], now: Date): Promise<void> {
  await tx.execute(Prisma.sql`
      UPDATE drifts SET state = 'resolved', resolved_at = v.at, active = NULL, updated_at = ${now}
      FROM unnest(${records.map((r) => r.id)}::uuid[], ${records.map((r) => r.resolvedAt)}::timestamptz[]) AS v(id, at)
      WHERE drifts.id = v.id AND drifts.active`);
}
