// Every rationed host's budget with the pulls still in its window, for the
// settings page and /metrics.
import type { Db } from "@/lib/db/client";
import type { BudgetView } from "@/lib/domain/registry-budget/budget";
import { toBudgetView, type BudgetRow, type PullRow } from "./budget-view";

export type StoredBudget = { host: string; identity: string; view: BudgetView; pullsTotal: number };

export async function listRegistryBudgets(db: Db, now: Date): Promise<StoredBudget[]> {
  const rows = await db.$queryRaw<(BudgetRow & { identity: string; pulls: PullRow[] | null })[]>`
    SELECT b.host, b.identity, b.pull_limit, b.window_seconds, b.remaining, b.remaining_at, b.remaining_pulls_total, b.blocked_until, b.pulls_total,
      (SELECT json_agg(json_build_object('at', p.at, 'purpose', p.purpose) ORDER BY p.at) FROM registry_pulls p
       WHERE p.host = b.host AND p.identity = b.identity AND p.at > ${now}::timestamptz - make_interval(secs => b.window_seconds)) AS pulls
    FROM registry_budgets b ORDER BY b.host, b.identity`;
  return rows.map((r) => ({
    host: r.host,
    identity: r.identity,
    view: toBudgetView(r, (r.pulls ?? []).map((p) => ({ at: new Date(p.at), purpose: p.purpose }))),
    pullsTotal: Number(r.pulls_total),
  }));
}
