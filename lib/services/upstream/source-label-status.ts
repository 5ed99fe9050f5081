// Where an image's source-label read stands, for the service page: read,
// waiting for the registry's pull quota (and until about when), retrying
// after a failure, not needed (the source is known otherwise), or not yet.
import { getServerLabelState } from "@/lib/db/queries/upstream/get-server-label-state";
import { requireRole, type RequestCtx } from "../context";
import { rationedHost } from "./pull-budget";

export type SourceLabelStatus = {
  state: "read" | "waiting_quota" | "retrying" | "pending" | "not_needed";
  /** The rationed registry's name ("Docker Hub"), or null. */
  host_name: string | null;
  read_at: string | null;
  next_read_at: string | null;
  error: string | null;
};

/** The server-checked repository's label status, or null when the server does not check it. */
export async function getSourceLabelStatus({ ctx, repository }: { ctx: RequestCtx; repository: string }): Promise<SourceLabelStatus | null> {
  requireRole(ctx.actor, "viewer");
  const row = await getServerLabelState(ctx.db, repository);
  if (!row) return null;
  const hostName = rationedHost(ctx.config, row.host)?.profile.name ?? null;
  const state: SourceLabelStatus["state"] = !row.labelNeeded
    ? "not_needed"
    : row.labelWaitingQuota
      ? "waiting_quota"
      : row.labelFailures > 0
        ? "retrying"
        : row.labelCheckedAt
          ? "read"
          : "pending";
  return {
    state,
    host_name: hostName,
    read_at: row.labelCheckedAt?.toISOString() ?? null,
    next_read_at: row.labelDueAt?.toISOString() ?? null,
    error: state === "retrying" ? row.labelError : null,
  };
}
