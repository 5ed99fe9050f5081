// Large reads run with more working memory, in their own transaction only:
// the pool's other statements keep the server's setting, and a setting above
// ours is kept.
import { describe, expect, inject, it } from "vitest";
import { createDb, Prisma } from "@/lib/db/client";
import { largeRead, LARGE_READ_WORK_MEM_KB } from "@/lib/db/large-read";
import { testDb } from "../support/api";

const workMemKb = Prisma.sql`SELECT setting::bigint AS kb FROM pg_settings WHERE name = 'work_mem'`;

describe("largeRead", () => {
  it("raises work_mem for its own statement and nothing after it", async () => {
    const db = testDb();
    const [before] = await db.$queryRaw<{ kb: bigint }[]>(workMemKb);
    expect(Number(before!.kb)).toBeLessThan(LARGE_READ_WORK_MEM_KB);
    const [inside] = await largeRead<{ kb: bigint }>(db, workMemKb);
    expect(Number(inside!.kb)).toBe(LARGE_READ_WORK_MEM_KB);
    // Every connection of the pool, used again: none kept the transaction's setting.
    const after = await Promise.all(Array.from({ length: 12 }, () => db.$queryRaw<{ kb: bigint }[]>(workMemKb)));
    expect(after.map(([row]) => Number(row!.kb))).toEqual(after.map(() => Number(before!.kb)));
  });

  it("never lowers a larger setting", async () => {
    // One connection, whose session asks for more than a large read would.
    const db = createDb(inject("databaseUrl"), { max: 1 });
    try {
      await db.$executeRawUnsafe(`SET work_mem = '${2 * LARGE_READ_WORK_MEM_KB}kB'`);
      const [inside] = await largeRead<{ kb: bigint }>(db, workMemKb);
      expect(Number(inside!.kb)).toBe(2 * LARGE_READ_WORK_MEM_KB);
    } finally {
      await db.$disconnect();
    }
  });
});
