import type { DbTx, Prisma } from "@/lib/db/client";

/** A Compose-in-Git target, due for its first refresh at `refreshDueAt`, with its environment's name. */
export async function createComposeTarget(
  db: DbTx, data: { workspaceId: string; environmentId: string; name: string; config: Prisma.InputJsonValue; refreshDueAt: Date },
) {
  return db.target.create({ data: { ...data, kind: "compose_git" }, include: { environment: { select: { name: true } } } });
}
