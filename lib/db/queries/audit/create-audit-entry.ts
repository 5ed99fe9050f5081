import { Prisma, statementRows, type DbTx, type SqlTx } from "@/lib/db/client";

export type AuditEntry = { workspaceId: string; actor: string; action: string; subject: string; data?: Prisma.InputJsonValue };

export async function createAuditEntry(db: DbTx | SqlTx, entry: AuditEntry): Promise<void> {
  await statementRows(db, Prisma.sql`
    INSERT INTO audit_log (workspace_id, actor, action, subject, data)
    VALUES (${entry.workspaceId}::uuid, ${entry.actor}, ${entry.action}, ${entry.subject}, ${JSON.stringify(entry.data ?? {})}::jsonb)`);
}
