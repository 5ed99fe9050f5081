// What a rationed host said of its quota: its limit and what remains (read from
// any response, HEADs included), or a refusal (429) that blocks pulls until
// its Retry-After. Older observations never overwrite newer ones.
import type { Db } from "@/lib/db/client";
import type { BudgetDefaults } from "./reserve-pulls";

export async function recordRateLimit(
  db: Db,
  input: { host: string; identity: string; defaults: BudgetDefaults; at: Date; limit: number | null; remaining: number; windowSeconds: number | null },
): Promise<void> {
  const { host, identity, defaults, at } = input;
  await db.$executeRaw`
    INSERT INTO registry_budgets (host, identity, pull_limit, window_seconds, updated_at) VALUES (${host}, ${identity}, ${defaults.limit}, ${defaults.windowSeconds}, ${at})
    ON CONFLICT (host, identity) DO NOTHING`;
  await db.$executeRaw`
    UPDATE registry_budgets SET
      pull_limit = COALESCE(${input.limit}::int, pull_limit),
      window_seconds = COALESCE(${input.windowSeconds}::int, window_seconds),
      remaining = ${input.remaining}::int, remaining_at = ${at}, remaining_pulls_total = pulls_total, updated_at = ${at}
    WHERE host = ${host} AND identity = ${identity} AND (remaining_at IS NULL OR remaining_at <= ${at})`;
}

export async function recordPullsBlocked(db: Db, input: { host: string; identity: string; defaults: BudgetDefaults; until: Date; at: Date }): Promise<void> {
  await db.$executeRaw`
    INSERT INTO registry_budgets (host, identity, pull_limit, window_seconds, blocked_until, updated_at) VALUES (${input.host}, ${input.identity}, ${input.defaults.limit}, ${input.defaults.windowSeconds}, ${input.until}, ${input.at})
    ON CONFLICT (host, identity) DO UPDATE SET blocked_until = GREATEST(registry_budgets.blocked_until, EXCLUDED.blocked_until), updated_at = EXCLUDED.updated_at`;
}
