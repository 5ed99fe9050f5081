import { Prisma, queryRows, type Db } from "@/lib/db/client";

/** The `chart_repository` of each named service's policy that sets one (service name → repository). */
export async function listChartRepositories(db: Db, workspaceId: string, names: readonly string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await queryRows<{ name: string; repository: string }>(db, Prisma.sql`
    SELECT name, policy->>'chart_repository' AS repository FROM services
    WHERE workspace_id = ${workspaceId}::uuid AND name = ANY(${[...names]}::text[]) AND policy->>'chart_repository' IS NOT NULL`);
  return new Map(rows.map((r) => [r.name, r.repository]));
}
