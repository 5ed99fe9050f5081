import type { DbTx } from "@/lib/db/client";

export async function updateEnvironment(db: DbTx, id: string, changes: { position?: number; production?: boolean }) {
  return db.environment.update({
    where: { id },
    data: { position: changes.position, production: changes.production },
    include: { _count: { select: { targets: true } } },
  });
}
