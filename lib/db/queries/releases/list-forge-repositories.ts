import type { DbTx } from "@/lib/db/client";

/** The forge repositories stored of these (kind, name) pairs. */
export async function listForgeRepositories(db: DbTx, wanted: readonly { kind: string; repository: string }[]): Promise<{ id: string; kind: string; name: string }[]> {
  return db.$queryRaw<{ id: string; kind: string; name: string }[]>`
    SELECT f.id::text, f.kind::text, f.name
    FROM forge_repositories f
    JOIN unnest(${wanted.map((f) => f.kind)}::text[], ${wanted.map((f) => f.repository)}::text[]) AS w(kind, name)
      ON f.kind::text = w.kind AND f.name = w.name`;
}
