import type { DbTx } from "@/lib/db/client";

/** The stored row of this forge repository, created (never fetched) when missing. */
export async function ensureForgeRepository(db: DbTx, kind: "github" | "gitlab", name: string): Promise<{ id: string; etag: string | null; fetchedAt: Date | null }> {
  return db.forgeRepository.upsert({
    where: { kind_name: { kind, name } },
    create: { kind, name },
    update: {},
  });
}
