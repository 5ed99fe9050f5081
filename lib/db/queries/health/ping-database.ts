import type { Db } from "@/lib/db/client";

/** Throws when the database does not answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}
