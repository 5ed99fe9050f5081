// The check record of every upstream repository a workspace uses (its
// services' and its own private ones), for upstream state by registry host.
import type { Db } from "@/lib/db/client";
import { workspaceRepositoriesSql } from "./workspace-repositories-sql";

export type UpstreamCheckStateRow = { host: string; checkedBy: "server" | "agent"; checkedAt: Date | null; lastError: string | null };

export async function loadUpstreamCheckStates(db: Db, workspaceId: string): Promise<UpstreamCheckStateRow[]> {
  const used = workspaceRepositoriesSql(workspaceId);
  return db.$queryRaw<UpstreamCheckStateRow[]>`${used.with}
    SELECT u.host, u.checked_by::text AS "checkedBy", u.checked_at AS "checkedAt", u.last_error AS "lastError"
    ${used.from}`;
}
