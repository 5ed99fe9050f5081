// Removing an acknowledgement: its drift notifies again.
import { deleteAck as deleteAckRow } from "@/lib/db/queries/acks/delete-ack";
import { getAck } from "@/lib/db/queries/acks/get-ack";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";

export async function deleteAck({ ctx, input: { id } }: { ctx: RequestCtx; input: { id: string } }): Promise<void> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const row = await getAck(ctx.db, workspaceId, id);
  if (!row) throw new AppError("not_found", "Acknowledgement not found.");
  await ctx.db.$transaction(async (tx) => {
    await deleteAckRow(tx, row.id);
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "ack.deleted", subject: row.service.name, data: { id: row.id } });
  });
}
