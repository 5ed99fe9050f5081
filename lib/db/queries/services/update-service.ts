import type { DbTx, Prisma } from "@/lib/db/client";

/** Fields left undefined keep their value; `policy: Prisma.DbNull` removes the policy. */
export async function updateService(
  db: DbTx,
  id: string,
  data: {
    team?: string | null;
    application?: string | null;
    repository?: string | null;
    policy?: Prisma.InputJsonValue | typeof Prisma.DbNull;
    checkDueAt?: Date;
  },
): Promise<void> {
  await db.service.update({ where: { id }, data });
}
