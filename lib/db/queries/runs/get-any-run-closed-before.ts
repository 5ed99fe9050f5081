import type { DbTx } from "@/lib/db/client";

/** True when some history row of the workspace ended before `cutoff`. */
export async function getAnyRunClosedBefore(db: DbTx, workspaceId: string, cutoff: Date): Promise<boolean> {
  const [due] = await db.$queryRaw<{ any: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM runs WHERE workspace_id = ${workspaceId}::uuid AND "to" < ${cutoff}) AS any`;
  return due?.any === true;
}
