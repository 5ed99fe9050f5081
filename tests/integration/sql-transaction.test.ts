// sqlTransaction: a transaction on one pool connection without Prisma's engine
// (drift evaluation's writes). Commits what it did, rolls everything back when
// it throws, bounds each statement, and leaves the pool usable either way.
import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { closeDb, createDb, Prisma, sqlTransaction, statementRows } from "@/lib/db/client";

describe("sqlTransaction", () => {
  const withDb = async (fn: (db: ReturnType<typeof createDb>, table: string) => Promise<void>) => {
    // One connection: every transaction below reuses the one before's.
    const db = createDb(inject("databaseUrl"), { max: 1 });
    const table = `sqltx_${randomUUID().slice(0, 8)}`;
    await db.$executeRawUnsafe(`CREATE TABLE ${table} (n int PRIMARY KEY)`);
    try {
      await fn(db, table);
    } finally {
      await db.$executeRawUnsafe(`DROP TABLE ${table}`);
      await db.$disconnect();
    }
  };
  const count = async (db: ReturnType<typeof createDb>, table: string) =>
    Number((await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${table}`))[0]!.n);

  it("commits what it wrote and answers rows and counts", async () => {
    await withDb(async (db, table) => {
      const result = await sqlTransaction(db, async (tx) => {
        const written = await tx.execute(Prisma.sql`INSERT INTO ${Prisma.raw(table)} SELECT generate_series(1, ${3}::int)`);
        const rows = await tx.rows<{ n: number }>(Prisma.sql`SELECT n FROM ${Prisma.raw(table)} ORDER BY n`);
        return { written, rows };
      }, { timeoutMs: 5_000 });
      expect(result).toEqual({ written: 3, rows: [{ n: 1 }, { n: 2 }, { n: 3 }] });
      expect(await count(db, table)).toBe(3);
    });
  });

  it("rolls back everything when a statement fails or the function throws, and the connection serves again", async () => {
    await withDb(async (db, table) => {
      const failing = sqlTransaction(db, async (tx) => {
        await tx.execute(Prisma.sql`INSERT INTO ${Prisma.raw(table)} VALUES (1), (2)`);
        await tx.execute(Prisma.sql`INSERT INTO ${Prisma.raw(table)} VALUES (2)`); // duplicate key
      }, { timeoutMs: 5_000 });
      await expect(failing).rejects.toMatchObject({ code: "23505" });
      const throwing = sqlTransaction(db, async (tx) => {
        await tx.execute(Prisma.sql`INSERT INTO ${Prisma.raw(table)} VALUES (7)`);
        throw new Error("changed my mind");
      }, { timeoutMs: 5_000 });
      await expect(throwing).rejects.toThrow("changed my mind");
      expect(await count(db, table)).toBe(0);
    });
  });

  it("ends a statement that runs past the timeout, and the next transaction has none left over", async () => {
    await withDb(async (db, table) => {
      const slow = sqlTransaction(db, async (tx) => {
        await tx.execute(Prisma.sql`INSERT INTO ${Prisma.raw(table)} VALUES (1)`);
        await tx.rows(Prisma.sql`SELECT pg_sleep(5)`);
      }, { timeoutMs: 200 });
      await expect(slow).rejects.toMatchObject({ code: "57014" }); // query_canceled
      expect(await count(db, table)).toBe(0);
      const [setting] = await db.$queryRaw<{ statement_timeout: string }[]>`SHOW statement_timeout`;
      expect(setting!.statement_timeout).toBe("0");
      const slept = await sqlTransaction(db, (tx) => tx.rows<{ ok: boolean }>(Prisma.sql`SELECT true AS ok FROM pg_sleep(0.3)`), { timeoutMs: 5_000 });
      expect(slept).toEqual([{ ok: true }]);
    });
  });
});

describe("statementRows", () => {
  it("runs on the client's pool, inside a Prisma transaction, and inside a sqlTransaction, rolled back with each", async () => {
    const db = createDb(inject("databaseUrl"), { max: 2 });
    const table = `stmt_${randomUUID().slice(0, 8)}`;
    const insert = (n: number) => Prisma.sql`INSERT INTO ${Prisma.raw(table)} VALUES (${n}::int) RETURNING n`;
    const numbers = async () => (await statementRows<{ n: number }>(db, Prisma.sql`SELECT n FROM ${Prisma.raw(table)} ORDER BY n`)).map((r) => r.n);
    await statementRows(db, Prisma.sql`CREATE TABLE ${Prisma.raw(table)} (n int PRIMARY KEY)`);
    try {
      expect(await statementRows(db, insert(1))).toEqual([{ n: 1 }]);
      // A Prisma transaction client carries the client's properties: its statements must still run in the transaction.
      await expect(db.$transaction(async (tx) => {
        expect(await statementRows(tx, insert(2))).toEqual([{ n: 2 }]);
        throw new Error("roll back");
      })).rejects.toThrow("roll back");
      await expect(sqlTransaction(db, async (tx) => {
        await statementRows(tx, insert(3));
        throw new Error("roll back");
      }, { timeoutMs: 5_000 })).rejects.toThrow("roll back");
      await db.$transaction(async (tx) => void (await statementRows(tx, insert(4))));
      expect(await numbers()).toEqual([1, 4]);
    } finally {
      await statementRows(db, Prisma.sql`DROP TABLE ${Prisma.raw(table)}`);
      await closeDb(db);
    }
  });
});
