// What ran when: history rows, newest first, filtered by service, environment and time.
import type { z } from "zod";
import type { historyQuerySchema, historySchema } from "@/lib/api/schemas/matrix";
import { workspaceOf, type Ctx } from "./context";

export async function listHistory({ ctx, query }: { ctx: Ctx; query: z.infer<typeof historyQuerySchema> }): Promise<z.infer<typeof historySchema>> {
  const workspaceId = workspaceOf(ctx.actor);
  const since = query.since ? new Date(query.since) : null;
  const rows = await ctx.db.run.findMany({
    where: {
      workspaceId,
      isMain: true,
      ...(query.service ? { service: { name: query.service } } : {}),
      ...(query.environment ? { environment: { name: query.environment } } : {}),
      ...(since ? { OR: [{ to: null }, { to: { gte: since } }] } : {}),
    },
    orderBy: [{ from: "desc" }, { id: "desc" }],
    take: query.limit ?? 1000,
    select: { tag: true, version: true, digest: true, declared: true, from: true, to: true, service: { select: { name: true } }, environment: { select: { name: true } }, target: { select: { name: true } } },
  });
  return {
    items: rows.map((r) => ({
      service: r.service.name, environment: r.environment.name, target: r.target.name, tag: r.tag, version: r.version, digest: r.digest,
      declared: r.declared, from: r.from.toISOString(), to: r.to?.toISOString() ?? null,
    })),
  };
}
