import { Prisma, type Db } from "@/lib/db/client";

export type NewUpstreamRepository = { key: string; host: string; path: string; ownerWorkspaceId: string | null; scope: string; checkedBy: "server" | "agent"; dueAt: Date };

/**
 * The INSERT … ON CONFLICT DO NOTHING of these rows, to run alone (createUpstreamRepositories) or as one
 * part of a larger statement (report intake). `onlyIf`: a SQL condition that must hold for anything to be inserted.
 */
export function upstreamRepositoriesInsertSql(rows: readonly NewUpstreamRepository[], onlyIf?: Prisma.Sql): Prisma.Sql {
  const col = <K extends keyof NewUpstreamRepository>(k: K) => rows.map((r) => r[k]);
  return Prisma.sql`
    INSERT INTO upstream_repositories (id, key, host, path, owner_workspace_id, scope, checked_by, due_at)
    SELECT gen_random_uuid(), v.key, v.host, v.path, v.owner, v.scope, v.checked_by::"CheckedBy", v.due_at
    FROM unnest(${col("key")}::text[], ${col("host")}::text[], ${col("path")}::text[], ${col("ownerWorkspaceId")}::uuid[], ${col("scope")}::text[],
                ${col("checkedBy")}::text[], ${col("dueAt")}::timestamptz[]) AS v(key, host, path, owner, scope, checked_by, due_at)
    WHERE ${onlyIf ?? Prisma.sql`true`}
    ON CONFLICT (key, scope) DO NOTHING`;
}

/** Runs a statement made by upstreamRepositoriesInsertSql. */
export async function createUpstreamRepositories(db: Db, insert: Prisma.Sql): Promise<void> {
  await db.$executeRaw(insert);
}
