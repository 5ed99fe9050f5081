import { Prisma, statementRows, type DbTx, type SqlTx } from "@/lib/db/client";

export async function deleteAgentKey(db: DbTx | SqlTx, id: string): Promise<void> {
  await statementRows(db, Prisma.sql`DELETE FROM agent_keys WHERE id = ${id}::uuid`);
}
