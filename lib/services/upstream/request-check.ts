// "Check now" (service page, API, `driftwatch check`): the service's
// repository becomes due at once and is checked in this process right away.
import { leaseRepository } from "@/lib/db/queries/upstream/lease-repository";
import { listRepositoryRows } from "@/lib/db/queries/upstream/list-repository-rows";
import { markRepositoryDue } from "@/lib/db/queries/upstream/mark-repository-due";
import { loadServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { AppError } from "@/lib/domain/errors";
import { isChartKey, parseChartKey } from "@/lib/domain/charts";
import { parseImageRef } from "@/lib/domain/image-ref";
import { requireRole, workspaceOf, type RequestCtx as Ctx } from "../context";
import { ensureUpstreamRepositories } from "./ensure-repositories";

export type CheckRequest = {
  service: string; repository: string; checked_by: "server" | "agent"; repository_id: string;
  /** True when this request holds the lease and should run the check; false when a worker is checking it already. */
  leased: boolean;
};

export async function requestCheck({ ctx, name }: { ctx: Ctx; name: string }): Promise<CheckRequest> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const [facts] = await loadServiceFacts(ctx.db, workspaceId, [name]);
  if (!facts) throw new AppError("not_found", `Service ${name} was not found.`);
  const key = facts.repository ?? facts.runningRepository;
  const repositoryKey = key ? (isChartKey(key) ? parseChartKey(key)?.key : parseImageRef(key)?.key) : undefined;
  if (!repositoryKey) throw new AppError("conflict", `Service ${name} has no repository to check yet: nothing runs it and none is set (a chart needs chart_repository).`);
  await ensureUpstreamRepositories(ctx.db, workspaceId, [repositoryKey], ctx.config.serverRegistries, ctx.now);
  const repos = await listRepositoryRows(ctx.db, workspaceId, repositoryKey);
  const repo = repos.find((r) => r.ownerWorkspaceId === workspaceId) ?? repos[0]!;
  const now = ctx.now;
  if (repo.checkedBy === "agent") {
    // Looked at by the workspace's agents on their next report.
    await markRepositoryDue(ctx.db, repo.id, now);
    return { service: name, repository: repo.key, checked_by: "agent", repository_id: repo.id, leased: false };
  }
  // Take the same lease the scheduler takes, so the repository is not checked twice at once.
  const leased = await leaseRepository(ctx.db, repo.id, now, new Date(now.getTime() + 5 * 60_000));
  return { service: name, repository: repo.key, checked_by: "server", repository_id: repo.id, leased };
}
