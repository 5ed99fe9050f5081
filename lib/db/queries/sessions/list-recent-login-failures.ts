import type { DbTx } from "@/lib/db/client";

/** When the newest `limit` failures for `key` since `since` happened, newest first. */
export async function listRecentLoginFailures(db: DbTx, key: string, since: Date, limit: number): Promise<Date[]> {
  const recent = await db.loginAttempt.findMany({ where: { key, at: { gte: since } }, orderBy: { at: "desc" }, take: limit, select: { at: true } });
  return recent.map((r) => r.at);
}
