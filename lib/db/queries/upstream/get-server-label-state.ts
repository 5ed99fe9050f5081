import type { DbTx } from "@/lib/db/client";

/** The shared, server-checked repository's source-label fields, or null when there is none. */
export async function getServerLabelState(db: DbTx, key: string) {
  return db.upstreamRepository.findFirst({
    where: { key, ownerWorkspaceId: null, checkedBy: "server" },
    select: { host: true, labelNeeded: true, labelCheckedAt: true, labelDueAt: true, labelWaitingQuota: true, labelFailures: true, labelError: true },
  });
}
