// Cached insights survive transactions that change nothing they show: triggers
// note the transactions that do (insight_writes), and a request whose snapshot
// differs from a result's only by others is answered by that result.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedInsight, pruneInsightWrites } from "@/lib/services/cache/insights-cache";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";

/** Columns of tables that are noted, which no insight reads: an update of only these leaves cached insights valid. */
const NOT_NOTED_COLUMNS: Record<string, string[]> = {
  // Who reported when (an agent's unchanged report each minute), the Compose refresh's lease and outcome.
  targets: ["agent_key_id", "last_observed_at", "last_report_at", "refresh_due_at", "last_commit", "last_error"],
  // The scheduler's bookkeeping.
  upstream_repositories: ["id", "due_at", "leased_until", "failures", "last_duration_ms", "label_checked_at", "created_at", "label_needed", "label_due_at", "label_failures", "label_error", "label_waiting_quota"],
  // When releases were last fetched, and the last error: written by a fetch that found nothing new.
  forge_repositories: ["fetched_at", "last_error"],
  // When a digest lookup is retried, and whether it waits for a pull budget: the quota wake writes them every check tick.
  digest_resolutions: ["retry_at", "waiting_quota"],
};

/** Tables no insight reads: their writes leave cached insights valid. */
const NOT_NOTED = ["_prisma_migrations", "users", "memberships", "api_tokens", "agent_keys", "login_attempts", "notification_rules", "events", "deliveries", "badge_keys", "audit_log", "cache_entries", "insight_writes", "insight_writes_pruned", "drift_evaluations", "registry_budgets", "registry_pulls", "oidc_identities", "docker_host_watches",
  // Gate decisions per environment: /metrics reads them on every scrape, outside the cached insights.
  "gate_decision_counts"];

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

  it("are noted for every column of a table with update triggers of its own but the ones no insight reads", async () => {
    const rows = await scratch.db.$queryRaw<{ table: string; noted: string[]; all: string[] }[]>`
      SELECT c.relname AS table,
        (SELECT array_agg(DISTINCT a.attname::text) FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid, unnest(t.tgattr::int2[]) k, pg_attribute a
         WHERE t.tgrelid = c.oid AND p.proname IN ('note_insight_write', 'note_insight_display_write') AND a.attrelid = c.oid AND a.attnum = k) AS noted,
        (SELECT array_agg(a.attname::text ORDER BY a.attname) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS all
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND EXISTS (
        SELECT 1 FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE t.tgrelid = c.oid AND p.proname IN ('note_insight_write', 'note_insight_display_write') AND cardinality(t.tgattr::int2[]) > 0)`;
    expect(rows.map((r) => r.table).sort()).toEqual(Object.keys(NOT_NOTED_COLUMNS).sort());
    for (const { table, noted, all } of rows) {
      const expected = all.filter((c) => !NOT_NOTED_COLUMNS[table]!.includes(c)).sort();
      expect([...noted].sort(), `${table}: a new column goes into one of its update triggers, or into NOT_NOTED_COLUMNS here`).toEqual(expected);
    }
  });

  it("keep a cached insight across a target's report bookkeeping, and renew it when the target changes", async () => {
    const { db } = scratch;
    const ctx = { db, get now() { return new Date(); } };
    const [ws] = await db.$queryRaw<{ id: string }[]>`INSERT INTO workspaces (id, name) VALUES (gen_random_uuid(), ${`iw-${randomUUID()}`}) RETURNING id::text`;
    const [env] = await db.$queryRaw<{ id: string }[]>`INSERT INTO environments (id, workspace_id, name, position) VALUES (gen_random_uuid(), ${ws!.id}::uuid, 'prod', 1) RETURNING id::text`;
    await db.$executeRaw`INSERT INTO targets (id, workspace_id, environment_id, name, kind) VALUES (gen_random_uuid(), ${ws!.id}::uuid, ${env!.id}::uuid, 'docker@a', 'docker')`;
    const c = counted();
    const key = randomUUID();
    await cachedInsight(ctx, key, c.compute);
    await db.$executeRaw`UPDATE targets SET last_observed_at = now(), last_report_at = now() WHERE workspace_id = ${ws!.id}::uuid`;
    await db.$executeRaw`UPDATE targets SET refresh_due_at = now(), last_commit = 'abc', last_error = NULL WHERE workspace_id = ${ws!.id}::uuid`;
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 1 });
    await db.$executeRaw`UPDATE targets SET last_report_hash = 'changed', last_report_at = now() WHERE workspace_id = ${ws!.id}::uuid`;
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 2 });
  });

  it("tell the writes drift reads from those only insights show: a repository's last check", async () => {
    const { db } = scratch;
    const ctx = { db, get now() { return new Date(); } };
    const [repo] = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO upstream_repositories (id, key, host, path) VALUES (gen_random_uuid(), ${`r.test/${randomUUID()}`}, 'r.test', 'x') RETURNING id::text`;
    const c = counted();
    const key = randomUUID();
    await cachedInsight(ctx, key, c.compute);
    const noted = async (fn: (tx: Parameters<Parameters<typeof db.$transaction>[0]>[0]) => Promise<unknown>) => {
      const [row] = await db.$transaction(async (tx) => {
        await fn(tx);
        return tx.$queryRaw<{ drift: boolean }[]>`SELECT drift FROM insight_writes WHERE xid = pg_current_xact_id()::text::bigint`;
      });
      return row?.drift;
    };
    // The matrix shows when it was checked: insights are computed again, drift is not.
    expect(await noted((tx) => tx.$executeRaw`UPDATE upstream_repositories SET checked_at = now(), checked_by = 'server', last_error = NULL WHERE id = ${repo!.id}::uuid`)).toBe(false);
    expect(await cachedInsight(ctx, key, c.compute)).toEqual({ n: 2 });
    // The same transaction writing tags too is a write drift reads, in either order.
    expect(await noted(async (tx) => {
      await tx.$executeRaw`UPDATE upstream_repositories SET checked_at = now() WHERE id = ${repo!.id}::uuid`;
      await tx.$executeRaw`INSERT INTO upstream_tags (repository_id, name) VALUES (${repo!.id}::uuid, '1.0.0')`;
    })).toBe(true);
    expect(await noted(async (tx) => {
      await tx.$executeRaw`UPDATE upstream_repositories SET tags_fingerprint = 'x' WHERE id = ${repo!.id}::uuid`;
      await tx.$executeRaw`UPDATE upstream_repositories SET checked_at = now() WHERE id = ${repo!.id}::uuid`;
    })).toBe(true);
  });

  it("keep a cached insight across other writes, and renew it after one", async () => {
    const { db } = scratch;
    const ctx = { db, get now() { return new Date(); } };
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
    const ctx = { db, get now() { return new Date(); } };
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
