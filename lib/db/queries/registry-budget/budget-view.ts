// A budget row and its ledger as the domain's BudgetView: shared by the
// reservation (inside its lock) and the readers for pages and metrics.
import type { BudgetView, PullPurpose } from "@/lib/domain/registry-budget/budget";

export type BudgetRow = {
  host: string;
  pull_limit: number;
  window_seconds: number;
  remaining: number | null;
  remaining_at: Date | null;
  remaining_pulls_total: bigint | null;
  blocked_until: Date | null;
  pulls_total: bigint;
};

export type PullRow = { at: Date; purpose: string };

export function toBudgetView(row: BudgetRow, pulls: readonly PullRow[]): BudgetView {
  return {
    limit: row.pull_limit,
    windowMs: row.window_seconds * 1000,
    pulls: pulls.map((p) => ({ at: p.at, purpose: p.purpose as PullPurpose })),
    headerRemaining: row.remaining,
    headerAt: row.remaining_at,
    pullsSinceHeader: row.remaining_pulls_total === null ? 0 : Number(row.pulls_total - row.remaining_pulls_total),
    blockedUntil: row.blocked_until,
  };
}
