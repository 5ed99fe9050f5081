// The workspace's acknowledgements, newest first.
import type { z } from "zod";
import { workspaceOf, type RequestCtx } from "../context";
import type { ackQuerySchema } from "./schemas";
import { include, withActiveState, type AckOut } from "./with-active-state";

export async function listAcks({ ctx, input: query }: { ctx: RequestCtx; input: z.infer<typeof ackQuerySchema> }): Promise<{ items: AckOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await ctx.db.ack.findMany({
    where: { workspaceId, ...(query.service ? { service: { name: query.service } } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include,
  });
  const items = await withActiveState(ctx, workspaceId, rows);
  return { items: query.active === undefined ? items : items.filter((a) => a.active === query.active) };
}
