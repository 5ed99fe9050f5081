// Cached insights survive transactions that change nothing they show: triggers
// note the transactions that do (insight_writes), and a request whose snapshot
// differs from a result's only by others is answered by that result.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedInsight, pruneInsightWrites } from "@/lib/services/insights/cache";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";

/** Tables no insight reads: their writes leave cached insights valid. */
const NOT_NOTED = ["_prisma_migrations", "users", "memberships", "api_tokens", "agent_keys", "login_attempts", "notification_rules", "events", "deliveries", "badge_keys", "audit_log", "cache_entries", "insight_writes", "insight_writes_pruned"];

let scratch: ScratchDb;
beforeAll(async () => {
  scratch = await createScratchDb("insight_writes");
});
afterAll(async () => {
  await scratch?.drop();
});

function counted() {
  let n = 0;
  return { compute: async () => ({ n: ++n }), calls: () => n };
}

describe("insight writes", () => {
  it("are noted for every table but the ones no insight reads", async () => {
    const rows = await scratch.db.$queryRaw<{ table: string; noted: boolean }[]>`
      SELECT c.relname AS table, EXISTS (
        SELECT 1 FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid WHERE t.tgrelid = c.oid AND p.proname = 'note_insight_write'
      ) AS noted
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r'`;
    expect(rows.length).toBeGreaterThan(20);
    for (const { table, noted } of rows) expect(noted, `${table}: add it to the triggers of the insight_writes migration, or to NOT_NOTED here`).toBe(!NOT_NOTED.includes(table));
  });

  it("keep a cached insight across other writes, and renew it after one", async () => {
    const { db } = scratch;
    const ctx = { db, now: () => new Date() };
    const [ws] = await db.$queryRaw<{ id: string }[]>`INSERT INTO workspaces (id, name) VALUES (gen_random_uuid(), ${`iw-${randomUUID()}`}) RETURNING id::text`;
    const c = counted();
    const key = randomUUID();
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 1 });

    // Sign-in attempts and cached upstream answers: transactions insights do not read.
    await db.$executeRaw`INSERT INTO login_attempts (key) VALUES ('someone')`;
    await db.$executeRaw`INSERT INTO cache_entries (key, value, fetched_at) VALUES (${randomUUID()}, '{}', now())`;
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 1 });

    // A new environment is something the matrix shows.
    await db.$executeRaw`INSERT INTO environments (id, workspace_id, name, position) VALUES (gen_random_uuid(), ${ws!.id}::uuid, 'dev', 1)`;
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 2 });
    // A statement that changes no row still counts (it is noted per statement).
    await db.$executeRaw`UPDATE environments SET position = position WHERE name = 'no-such'`;
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 3 });
    // A transaction that wrote and rolled back changed nothing.
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO environments (id, workspace_id, name, position) VALUES (gen_random_uuid(), ${ws!.id}::uuid, 'gone', 2)`;
      throw new Error("roll back");
    }).catch(() => undefined);
    await db.$executeRaw`INSERT INTO login_attempts (key) VALUES ('someone else')`;
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 3 });
    expect(c.calls()).toBe(3);
  });

  it("are pruned after ten minutes, and results from before the pruned ones are computed again", async () => {
    const { db } = scratch;
    const ctx = { db, now: () => new Date() };
    const c = counted();
    const key = randomUUID();
    await cachedInsight(ctx, key, c.compute);
    await db.$executeRaw`INSERT INTO environments (id, workspace_id, name, position) SELECT gen_random_uuid(), id, ${`p-${randomUUID()}`}, 9 FROM workspaces LIMIT 1`;
    // Age every noted write, as if ten minutes had passed.
    await db.$executeRaw`UPDATE insight_writes SET at = at - interval '11 minutes'`;
    expect(await pruneInsightWrites(db)).toBeGreaterThan(0);
    expect(await db.insightWrite.count()).toBe(0);
    const [pruned] = await db.$queryRaw<{ through: bigint }[]>`SELECT through_xid AS through FROM insight_writes_pruned`;
    expect(pruned!.through).toBeGreaterThan(0n);
    // The environment's write is gone from the notes, yet the result from before it is not answered.
    await db.$executeRaw`INSERT INTO login_attempts (key) VALUES ('after pruning')`;
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 2 });
  });
});
