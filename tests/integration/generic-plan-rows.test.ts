// genericPlanRows: a hot statement planned once per connection, on a pool of its own;
// other statements keep PostgreSQL's own choice, and a transaction's statements run in it.
import { describe, expect, inject, it, vi } from "vitest";
import { closeDb, createDb, genericPlanRows, Prisma, queryRows, sqlTransaction } from "@/lib/db/client";
import { testDb } from "../support/api";

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

  it("survives the database closing its idle connections, on both pools", async () => {
    // A restart or an administrator's pg_terminate_backend: the pool hears of it while the connection is idle.
    const app = `dw_idle_${process.pid}`;
    const url = `${inject("databaseUrl")}${inject("databaseUrl").includes("?") ? "&" : "?"}application_name=${app}`;
    const db = createDb(url, { max: 2 });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const one = Prisma.sql`SELECT ${1}::int AS n`;
      await Promise.all([genericPlanRows(db, one), queryRows(db, one)]);
      const killed = await testDb().$queryRaw<{ n: number }[]>`
        WITH mine AS MATERIALIZED (SELECT pid FROM pg_stat_activity WHERE application_name = ${app})
        SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM mine`;
      expect(killed[0]?.n).toBe(2);
      await expect.poll(() => stderr.mock.calls.filter(([line]) => String(line).includes("an idle connection was closed")).length).toBe(2);
      expect(await genericPlanRows(db, one)).toEqual([{ n: 1 }]);
      expect(await queryRows(db, one)).toEqual([{ n: 1 }]);
    } finally {
      stderr.mockRestore();
      await closeDb(db);
    }
  });
});
