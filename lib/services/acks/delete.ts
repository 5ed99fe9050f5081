// Removing an acknowledgement: its drift notifies again.
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { include } from "./with-active-state";

export async function deleteAck({ ctx, input: { id } }: { ctx: RequestCtx; input: { id: string } }): Promise<void> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const row = await ctx.db.ack.findFirst({ where: { id, workspaceId }, include });
  if (!row) throw new AppError("not_found", "Acknowledgement not found.");
  await ctx.db.$transaction([
    ctx.db.ack.delete({ where: { id: row.id } }),
    ctx.db.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "ack.deleted", subject: row.service.name, data: { id: row.id } } }),
  ]);
}
