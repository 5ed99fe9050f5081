// What ran when: history rows, newest first, filtered by service, environment and time.
import { getEnvironmentId } from "@/lib/db/queries/environments/get-environment-id";
import { listEnvironmentNames } from "@/lib/db/queries/environments/list-environment-names";
import { listHistoryRuns } from "@/lib/db/queries/history/list-history-runs";
import { getServiceId } from "@/lib/db/queries/services/get-service-id";
import { listServiceNames } from "@/lib/db/queries/services/list-service-names";
import { listTargetNames } from "@/lib/db/queries/targets/list-target-names";
import { loadUpstream } from "@/lib/db/queries/upstream/list-upstream-facts";
import { exactVersionOf } from "@/lib/domain/running-version";
import type { z } from "zod";
import type { historyQuerySchema, historySchema } from "@/lib/services/history/schemas";
import { workspaceOf, type RequestCtx } from "../context";

export async function listHistory({ ctx, input: query }: { ctx: RequestCtx; input: z.infer<typeof historyQuerySchema> }): Promise<z.infer<typeof historySchema>> {
  const workspaceId = workspaceOf(ctx.actor);
  const since = query.since ? new Date(query.since) : null;
  const [serviceId, environmentId] = await Promise.all([
    query.service ? getServiceId(ctx.db, workspaceId, query.service) : undefined,
    query.environment ? getEnvironmentId(ctx.db, workspaceId, query.environment) : undefined,
  ]);
  if (serviceId === null || environmentId === null) return { items: [] };
  const rows = await listHistoryRuns(ctx.db, workspaceId, { serviceId, environmentId, since, limit: query.limit ?? 1000 });
  // History rows carry ids only (no keys, see schema.prisma): their names, read once each.
  const ids = (key: "serviceId" | "environmentId" | "targetId") => [...new Set(rows.map((r) => r[key]))];
  // A tag version not resolved by digest is exact only if upstream shows no longer versions of its line (`1.27` beside `1.27.3`).
  const lineCandidates = [...new Set(rows.filter((r) => r.resolved === null && r.version !== null).map((r) => r.repository))];
  const [services, environments, targets, upstream] = await Promise.all([
    listServiceNames(ctx.db, workspaceId, ids("serviceId")),
    listEnvironmentNames(ctx.db, workspaceId, ids("environmentId")),
    listTargetNames(ctx.db, workspaceId, ids("targetId")),
    loadUpstream(ctx.db, workspaceId, lineCandidates),
  ]);
  const name = (list: { id: string; name: string }[]) => new Map(list.map((x) => [x.id, x.name] as const));
  const serviceName = name(services), environmentName = name(environments), targetName = name(targets);
  return {
    items: rows.map((r) => ({
      service: serviceName.get(r.serviceId) ?? "", environment: environmentName.get(r.environmentId) ?? "", target: targetName.get(r.targetId) ?? "",
      tag: r.tag, version: exactVersionOf({ tag: r.tag, tagVersion: r.version, resolvedVersion: r.resolved }, upstream.get(r.repository)?.tags ?? null), digest: r.digest, declared: r.declared, from: r.from.toISOString(), to: r.to?.toISOString() ?? null,
    })),
  };
}
