// Reserve pulls on a rationed host for every process on the database at once:
// the host's row is locked while its ledger is read and the pulls are added,
// so two servers never spend the same free pull.
import type { Db } from "@/lib/db/client";
import { canSpend, nextSpendAt, type PullPurpose } from "@/lib/domain/registry-budget/budget";
import { toBudgetView, type BudgetRow, type PullRow } from "./budget-view";

export type BudgetDefaults = { limit: number; windowSeconds: number };
export type Reservation = { granted: true; ids: bigint[] } | { granted: false; nextAt: Date };

/**
 * `onlyOnceLimited`: a host that has no budget until it says it has one (a mirror passing the upstream's
 * rate-limit headers through): pulls are granted freely, and not counted, until a header was recorded.
 */
export async function reservePulls(
  db: Db,
  input: { host: string; identity: string; defaults: BudgetDefaults; purpose: PullPurpose; pulls: number; now: Date; onlyOnceLimited?: boolean },
): Promise<Reservation> {
  const { host, identity, defaults, purpose, pulls, now } = input;
  return db.$transaction(async (tx) => {
    if (input.onlyOnceLimited) {
      const [heard] = await tx.$queryRaw<{ heard: boolean }[]>`
        SELECT (remaining_at IS NOT NULL OR blocked_until IS NOT NULL) AS heard FROM registry_budgets WHERE host = ${host} AND identity = ${identity}`;
      if (!heard?.heard) return { granted: true, ids: [] };
    }
    // The profile's limit until the host has said its own (a sign-in added later raises it at once).
    await tx.$executeRaw`
      INSERT INTO registry_budgets (host, identity, pull_limit, window_seconds, updated_at) VALUES (${host}, ${identity}, ${defaults.limit}, ${defaults.windowSeconds}, ${now})
      ON CONFLICT (host, identity) DO UPDATE SET pull_limit = EXCLUDED.pull_limit, window_seconds = EXCLUDED.window_seconds
      WHERE registry_budgets.remaining_at IS NULL`;
    const [row] = await tx.$queryRaw<BudgetRow[]>`
      SELECT host, pull_limit, window_seconds, remaining, remaining_at, remaining_pulls_total, blocked_until, pulls_total
      FROM registry_budgets WHERE host = ${host} AND identity = ${identity} FOR UPDATE`;
    const windowStart = new Date(now.getTime() - row!.window_seconds * 1000);
    await tx.$executeRaw`DELETE FROM registry_pulls WHERE host = ${host} AND identity = ${identity} AND at <= ${windowStart}`;
    const ledger = await tx.$queryRaw<PullRow[]>`SELECT at, purpose FROM registry_pulls WHERE host = ${host} AND identity = ${identity} ORDER BY at`;
    const view = toBudgetView(row!, ledger);
    if (!canSpend(view, now, purpose, pulls)) return { granted: false, nextAt: nextSpendAt(view, now, purpose, pulls) };
    const ids = await tx.$queryRaw<{ id: bigint }[]>`
      INSERT INTO registry_pulls (host, identity, at, purpose) SELECT ${host}, ${identity}, ${now}, ${purpose} FROM generate_series(1, ${pulls}::int) RETURNING id`;
    await tx.$executeRaw`UPDATE registry_budgets SET pulls_total = pulls_total + ${pulls}::int, updated_at = ${now} WHERE host = ${host} AND identity = ${identity}`;
    return { granted: true, ids: ids.map((r) => r.id) };
  }, { maxWait: 15_000, timeout: 30_000 });
}
