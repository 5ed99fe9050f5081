// Give back reserved pulls that were not spent (a single-platform image needs
// one manifest, not two).
import type { Db } from "@/lib/db/client";

export async function releasePulls(db: Db, budget: { host: string; identity: string }, ids: readonly bigint[]): Promise<void> {
  const { host, identity } = budget;
  if (ids.length === 0) return;
  await db.$transaction(async (tx) => {
    const deleted = await tx.$executeRaw`DELETE FROM registry_pulls WHERE host = ${host} AND identity = ${identity} AND id = ANY(${[...ids]}::bigint[])`;
    if (deleted > 0) await tx.$executeRaw`UPDATE registry_budgets SET pulls_total = pulls_total - ${deleted}::int WHERE host = ${host} AND identity = ${identity}`;
  });
}
