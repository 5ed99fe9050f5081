// Whether first-run setup has happened.
import { countUsers } from "@/lib/db/queries/users/count-users";
import type { Db } from "@/lib/db/client";
import { DEMO_EMAIL } from "@/lib/domain/demo/plan";

/** `besidesDemo`: the demo's owner does not count, so an instance tried with the demo can still be set up. */
export async function hasAnyUser(db: Db, opts: { besidesDemo?: boolean } = {}): Promise<boolean> {
  return (await countUsers(db, opts.besidesDemo ? { except: DEMO_EMAIL } : {})) > 0;
}
