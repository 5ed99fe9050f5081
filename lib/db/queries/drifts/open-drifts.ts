import { Prisma, type SqlTx } from "@/lib/db/client";
import type { DriftKind } from "@/lib/domain/policy";

/** id, service, environment, target, kind, state, running, expected, opened at, announced at. */
export type OpenDriftRow = [string, string, string, string | null, DriftKind, "open" | "announced", string | null, string | null, Date, Date | null];

/** New live records, as one JSON document. */
export async function openDrifts(tx: SqlTx, workspaceId: string, rows: readonly OpenDriftRow[], now: Date): Promise<number> {
  return tx.execute(Prisma.sql`
      INSERT INTO drifts (id, workspace_id, service_id, environment_id, target_id, kind, state, running, expected, opened_at, announced_at, active, updated_at)
      SELECT (r->>0)::uuid, ${workspaceId}::uuid, (r->>1)::uuid, (r->>2)::uuid, (r->>3)::uuid, (r->>4)::"DriftKind", (r->>5)::"DriftState",
             r->>6, r->>7, (r->>8)::timestamptz, (r->>9)::timestamptz, true, ${now}
      FROM json_array_elements(${JSON.stringify(rows)}::json) AS r`);
}
