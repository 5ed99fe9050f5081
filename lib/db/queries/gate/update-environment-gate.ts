import { Prisma, statementRows, type DbTx } from "@/lib/db/client";

export async function updateEnvironmentGate(db: DbTx, environmentId: string, gate: Record<string, unknown>): Promise<void> {
  await statementRows(db, Prisma.sql`UPDATE environments SET gate = ${JSON.stringify(gate)}::jsonb WHERE id = ${environmentId}::uuid RETURNING id`);
}
