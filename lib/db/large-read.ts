// Reads that sort or group a whole workspace's open rows (drift's inputs) need
// more working memory than PostgreSQL's default: otherwise a large fleet's sort
// spills to disk and the planner scans all of history rather than the index of
// open rows. The setting is raised for that one transaction only, and never
// lowered below what the server or role already sets.
import type { Db, Prisma } from "./client";

/** Working memory for one large read, in kB. */
export const LARGE_READ_WORK_MEM_KB = 64 * 1024;

/** `query` in a transaction of its own whose work_mem is at least LARGE_READ_WORK_MEM_KB. */
export async function largeRead<T>(db: Db, query: Prisma.Sql): Promise<T[]> {
  const [, rows] = await db.$transaction([
    db.$queryRaw`SELECT set_config('work_mem', greatest(setting::bigint, ${LARGE_READ_WORK_MEM_KB})::text || 'kB', true) FROM pg_settings WHERE name = 'work_mem'`,
    db.$queryRaw<T[]>(query),
  ]);
  return rows;
}
