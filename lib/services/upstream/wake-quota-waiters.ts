// Before a check tick: what waits for a rationed host's pull budget is told
// the budget's own answer again. A new identity (a sign-in, a mirror) is a new
// budget, so what waited for the old one is looked up at once, not when the
// old window refills.
import { listRegistryBudgets } from "@/lib/db/queries/registry-budget/list-registry-budgets";
import { wakeQuotaWaiters as wake } from "@/lib/db/queries/registry-budget/wake-quota-waiters";
import { DOCKER_HUB_HOST } from "@/lib/domain/image-ref";
import { nextSpendAt } from "@/lib/domain/registry-budget/budget";
import type { CheckDeps } from "./ports";
import { freshBudgetView, rationedHost } from "./pull-budget";

/** An index and one platform manifest, as a label read reserves. */
const LABEL_PULLS = 2;

export async function wakeQuotaWaiters(deps: Pick<CheckDeps, "db" | "config" | "now">): Promise<void> {
  const now = deps.now;
  const hosts = [...new Set([DOCKER_HUB_HOST, ...deps.config.dockerHubHosts])];
  const stored = await listRegistryBudgets(deps.db, now);
  for (const host of hosts) {
    const rationed = rationedHost(deps.config, host);
    if (!rationed) continue;
    const budget = stored.find((b) => b.host === rationed.host && b.identity === rationed.identity);
    // A mirror that never sent rate-limit headers has no budget: nothing need wait for it.
    const isFree = !budget || (rationed.mirror !== null && budget.view.headerAt === null && budget.view.blockedUntil === null);
    const view = budget && !isFree ? budget.view : freshBudgetView(rationed);
    await wake(deps.db, { host: rationed.host, resolveAt: nextSpendAt(view, now, "resolve", 1), labelAt: nextSpendAt(view, now, "label", LABEL_PULLS) });
  }
}
