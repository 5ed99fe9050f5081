// What ran when: history rows, newest first, filtered by service, environment and time.
import type { z } from "zod";
import type { historyQuerySchema, historySchema } from "@/lib/services/history/schemas";
import { workspaceOf, type RequestCtx } from "../context";

export async function listHistory({ ctx, input: query }: { ctx: RequestCtx; input: z.infer<typeof historyQuerySchema> }): Promise<z.infer<typeof historySchema>> {
  const workspaceId = workspaceOf(ctx.actor);
  const since = query.since ? new Date(query.since) : null;
  const byName = { select: { id: true } } as const;
  const [service, environment] = await Promise.all([
    query.service ? ctx.db.service.findUnique({ where: { workspaceId_name: { workspaceId, name: query.service } }, ...byName }) : undefined,
    query.environment ? ctx.db.environment.findUnique({ where: { workspaceId_name: { workspaceId, name: query.environment } }, ...byName }) : undefined,
  ]);
  if (service === null || environment === null) return { items: [] };
  const rows = await ctx.db.run.findMany({
    where: {
      workspaceId,
      isMain: true,
      ...(service ? { serviceId: service.id } : {}),
      ...(environment ? { environmentId: environment.id } : {}),
      ...(since ? { OR: [{ to: null }, { to: { gte: since } }] } : {}),
    },
    orderBy: [{ from: "desc" }, { id: "desc" }],
    take: query.limit ?? 1000,
    select: { tag: true, version: true, digest: true, declared: true, from: true, to: true, serviceId: true, environmentId: true, targetId: true },
  });
  // History rows carry ids only (no keys, see schema.prisma): their names, read once each.
  const ids = (key: "serviceId" | "environmentId" | "targetId") => ({ workspaceId, id: { in: [...new Set(rows.map((r) => r[key]))] } });
  const [services, environments, targets] = await Promise.all([
    ctx.db.service.findMany({ where: ids("serviceId"), select: { id: true, name: true } }),
    ctx.db.environment.findMany({ where: ids("environmentId"), select: { id: true, name: true } }),
    ctx.db.target.findMany({ where: ids("targetId"), select: { id: true, name: true } }),
  ]);
  const name = (list: { id: string; name: string }[]) => new Map(list.map((x) => [x.id, x.name] as const));
  const serviceName = name(services), environmentName = name(environments), targetName = name(targets);
  return {
    items: rows.map((r) => ({
      service: serviceName.get(r.serviceId) ?? "", environment: environmentName.get(r.environmentId) ?? "", target: targetName.get(r.targetId) ?? "",
      tag: r.tag, version: r.version, digest: r.digest, declared: r.declared, from: r.from.toISOString(), to: r.to?.toISOString() ?? null,
    })),
  };
}
