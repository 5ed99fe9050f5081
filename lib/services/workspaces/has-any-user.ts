// Whether first-run setup has happened.
import type { Db } from "@/lib/db/client";

export async function hasAnyUser(db: Db): Promise<boolean> {
  return (await db.user.count()) > 0;
}
