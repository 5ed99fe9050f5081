// What runs now, as acknowledgements see it: exact versions per service and
// environment, worked out as the matrix does. Read for a few services only
// (those with acknowledgements), so lists stay cheap.
import type { Db } from "@/lib/db/client";
import { indexRunningVersions, type RunningVersions } from "@/lib/domain/drift";
import { loadCurrentRunsOf } from "./load-inputs";

export async function loadRunningVersions(db: Db, workspaceId: string, serviceIds: readonly string[]): Promise<RunningVersions> {
  if (serviceIds.length === 0) return new Map();
  return indexRunningVersions(await loadCurrentRunsOf(db, workspaceId, [...new Set(serviceIds)]));
}
