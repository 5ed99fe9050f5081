import { Prisma, type SqlTx } from "@/lib/db/client";

/** What live records say runs and is expected, where, and since when. */
export async function updateDrifts(
  tx: SqlTx, records: readonly { id: string; running: string | null; expected: string | null; targetId: string | null; openedAt: Date }[], now: Date,
): Promise<void> {
  const u = records;
  await tx.execute(Prisma.sql`
      UPDATE drifts d SET running = u.running, expected = u.expected, target_id = u.target_id, opened_at = u.opened_at, updated_at = ${now}
      FROM unnest(${u.map((x) => x.id)}::uuid[], ${u.map((x) => x.running)}::text[], ${u.map((x) => x.expected)}::text[],
                  ${u.map((x) => x.targetId)}::uuid[], ${u.map((x) => x.openedAt)}::timestamptz[]) AS u(id, running, expected, target_id, opened_at)
      WHERE d.id = u.id`);
}
