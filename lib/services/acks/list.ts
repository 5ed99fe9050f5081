// The workspace's acknowledgements, newest first.
import type { z } from "zod";
import { workspaceOf, type RequestCtx } from "../context";
import type { ackQuerySchema } from "./schemas";
import { listAcks as listAckRows } from "@/lib/db/queries/acks/list-acks";
import { withActiveState, type AckOut } from "./with-active-state";

export async function listAcks({ ctx, input: query }: { ctx: RequestCtx; input: z.infer<typeof ackQuerySchema> }): Promise<{ items: AckOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await listAckRows(ctx.db, workspaceId, query.service);
  const items = await withActiveState(ctx, workspaceId, rows);
  return { items: query.active === undefined ? items : items.filter((a) => a.active === query.active) };
}
