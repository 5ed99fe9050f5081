// The policies of every service (any workspace) that tracks an upstream
// repository: its own repository setting, else what its main containers run
// now. One statement over the repository's open history rows.
import type { Db, Prisma } from "@/lib/db/client";

export async function policiesOfRepository(db: Db, repositoryKey: string): Promise<Prisma.JsonValue[]> {
  const rows = await db.$queryRaw<{ policy: Prisma.JsonValue }[]>`
    SELECT s.policy FROM services s WHERE s.repository = ${repositoryKey}
    UNION
    SELECT s.policy FROM services s
    WHERE s.id IN (SELECT r.service_id FROM runs r WHERE r.repository = ${repositoryKey} AND r."to" IS NULL AND r.is_main) AND s.repository IS NULL`;
  return rows.map((r) => r.policy ?? null);
}
