import { Prisma, statementRows, type DbTx, type SqlTx } from "@/lib/db/client";

export type CreatedApiTokenRow = { id: string; workspaceId: string; name: string; role: "viewer" | "member"; prefix: string; createdAt: Date };

export async function createApiToken(db: DbTx | SqlTx, data: { workspaceId: string; name: string; role: "viewer" | "member"; prefix: string; hash: string; createdAt: Date }): Promise<CreatedApiTokenRow> {
  const [row] = await statementRows<CreatedApiTokenRow>(db, Prisma.sql`
    INSERT INTO api_tokens (id, workspace_id, name, role, prefix, hash, created_at)
    VALUES (gen_random_uuid(), ${data.workspaceId}::uuid, ${data.name}, ${data.role}::"TokenRole", ${data.prefix}, ${data.hash}, ${data.createdAt})
    RETURNING id::text, workspace_id::text AS "workspaceId", name, role::text, prefix, created_at AS "createdAt"`);
  return row!;
}
