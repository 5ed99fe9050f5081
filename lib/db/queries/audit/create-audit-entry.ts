import type { DbTx, Prisma } from "@/lib/db/client";

export type AuditEntry = { workspaceId: string; actor: string; action: string; subject: string; data?: Prisma.InputJsonValue };

export async function createAuditEntry(db: DbTx, entry: AuditEntry): Promise<void> {
  await db.auditEntry.create({ data: entry });
}
