// An acknowledgement as the API shows it, with whether it is in force now.
import type { z } from "zod";
import { isAckActive, listVersionsInAckScope } from "@/lib/domain/drift";
import type { AckRow } from "@/lib/db/queries/acks/ack-row";
import type { RequestCtx } from "../context";
import { loadRunningVersions } from "../drift/running-versions";
import type { ackSchema } from "./schemas";

export type AckOut = z.infer<typeof ackSchema>;

function toOut(row: AckRow, active: boolean): AckOut {
  return {
    id: row.id,
    service: row.service.name,
    kind: row.kind,
    until_version: row.untilVersion,
    skip_version: row.skipVersion,
    environment: row.environment?.name ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    lifted_at: row.liftedAt?.toISOString() ?? null,
    active,
    created_by: row.createdBy,
  };
}

/** Active = not lifted, not expired, and no version at or above until_version runs in scope yet. */
export async function withActiveState(ctx: RequestCtx, workspaceId: string, rows: AckRow[]): Promise<AckOut[]> {
  const now = ctx.now;
  const needVersions = rows.filter((r) => r.untilVersion !== null && r.liftedAt === null).map((r) => r.serviceId);
  const running = await loadRunningVersions(ctx.db, workspaceId, needVersions);
  return rows.map((r) => toOut(r, isAckActive(r, { now, runningVersionsInScope: listVersionsInAckScope(r, running) })));
}
