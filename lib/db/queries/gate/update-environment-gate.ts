import { Prisma, statementRows, type DbTx } from "@/lib/db/client";

/** Merges the fields given into the environment's gate settings, in the statement itself, so concurrent changes of different fields both stay. */
export async function updateEnvironmentGate(db: DbTx, environmentId: string, change: Record<string, unknown>): Promise<void> {
  await statementRows(db, Prisma.sql`
    UPDATE environments SET gate = coalesce(gate, '{}'::jsonb) || ${JSON.stringify(change)}::jsonb WHERE id = ${environmentId}::uuid RETURNING id`);
}
