// genericPlanRows: a hot statement planned once per connection, on a pool of its own;
// other statements keep PostgreSQL's own choice, and a transaction's statements run in it.
import { describe, expect, inject, it } from "vitest";
import { closeDb, createDb, genericPlanRows, Prisma, queryRows, sqlTransaction } from "@/lib/db/client";

describe("genericPlanRows", () => {
  it("runs on connections that plan generically, and nowhere else", async () => {
    const db = createDb(inject("databaseUrl"), { max: 2 });
    try {
      const mode = Prisma.sql`SELECT current_setting('plan_cache_mode') AS mode, ${2}::int + 1 AS n`;
      expect(await genericPlanRows(db, mode)).toEqual([{ mode: "force_generic_plan", n: 3 }]);
      expect(await queryRows(db, mode)).toEqual([{ mode: "auto", n: 3 }]);
      const inTx = await sqlTransaction(db, (tx) => genericPlanRows(tx, mode), { timeoutMs: 5_000 });
      expect(inTx).toEqual([{ mode: "auto", n: 3 }]);
      // Behind PgBouncer (no prepared statements), as any other statement.
      const bouncer = createDb(`${inject("databaseUrl")}${inject("databaseUrl").includes("?") ? "&" : "?"}pgbouncer=true`, { max: 1 });
      try {
        expect(await genericPlanRows(bouncer, mode)).toEqual([{ mode: "auto", n: 3 }]);
      } finally {
        await closeDb(bouncer);
      }
    } finally {
      await closeDb(db);
    }
  });
});
