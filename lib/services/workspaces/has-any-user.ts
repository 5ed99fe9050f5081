// Whether first-run setup has happened.
import { countUsers } from "@/lib/db/queries/users/count-users";
import type { Db } from "@/lib/db/client";

export async function hasAnyUser(db: Db): Promise<boolean> {
  return (await countUsers(db)) > 0;
}
