// Reserve pulls on a rationed host for every process on the database at once:
// the host's row is locked while its ledger is read and the pulls are added,
// so two servers never spend the same free pull.
import type { Db } from "@/lib/db/client";
import { canSpend, nextSpendAt, type PullPurpose } from "@/lib/domain/registry-budget/budget";
import { toBudgetView, type BudgetRow, type PullRow } from "./budget-view";

export type BudgetDefaults = { limit: number; windowSeconds: number };
export type Reservation = { granted: true; ids: bigint[] } | { granted: false; nextAt: Date };

export async function reservePulls(db: Db, input: { host: string; defaults: BudgetDefaults; purpose: PullPurpose; pulls: number; now: Date }): Promise<Reservation> {
  const { host, defaults, purpose, pulls, now } = input;
  return db.$transaction(async (tx) => {
    // The profile's limit until the host has said its own (a sign-in added later raises it at once).
    await tx.$executeRaw`
      INSERT INTO registry_budgets (host, pull_limit, window_seconds, updated_at) VALUES (${host}, ${defaults.limit}, ${defaults.windowSeconds}, ${now})
      ON CONFLICT (host) DO UPDATE SET pull_limit = EXCLUDED.pull_limit, window_seconds = EXCLUDED.window_seconds
      WHERE registry_budgets.remaining_at IS NULL`;
    const [row] = await tx.$queryRaw<BudgetRow[]>`
      SELECT host, pull_limit, window_seconds, remaining, remaining_at, remaining_pulls_total, blocked_until, pulls_total
      FROM registry_budgets WHERE host = ${host} FOR UPDATE`;
    const windowStart = new Date(now.getTime() - row!.window_seconds * 1000);
    await tx.$executeRaw`DELETE FROM registry_pulls WHERE host = ${host} AND at <= ${windowStart}`;
    const ledger = await tx.$queryRaw<PullRow[]>`SELECT at, purpose FROM registry_pulls WHERE host = ${host} ORDER BY at`;
    const view = toBudgetView(row!, ledger);
    if (!canSpend(view, now, purpose, pulls)) return { granted: false, nextAt: nextSpendAt(view, now, purpose, pulls) };
    const ids = await tx.$queryRaw<{ id: bigint }[]>`
      INSERT INTO registry_pulls (host, at, purpose) SELECT ${host}, ${now}, ${purpose} FROM generate_series(1, ${pulls}::int) RETURNING id`;
    await tx.$executeRaw`UPDATE registry_budgets SET pulls_total = pulls_total + ${pulls}::int, updated_at = ${now} WHERE host = ${host}`;
    return { granted: true, ids: ids.map((r) => r.id) };
  }, { maxWait: 15_000, timeout: 30_000 });
}
