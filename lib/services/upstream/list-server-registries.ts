// The registries the server queries itself, each with its pull budget where
// its pulls are rationed (Docker Hub): the limit, what is left, and when the
// budget refills. For the settings page and /metrics.
import { WELL_KNOWN_REGISTRIES } from "@/lib/adapters/registries/well-known";
import { listRegistryBudgets } from "@/lib/db/queries/registry-budget/list-registry-budgets";
import { nextSpendAt, remainingPulls } from "@/lib/domain/registry-budget/budget";
import { normaliseRegistryHost } from "@/lib/domain/image-ref";
import { requireRole, type RequestCtx } from "../context";
import { freshBudgetView, rationedHost } from "./pull-budget";

export type ServerRegistry = {
  host: string;
  /** Pulls are rationed on this host, and budgeted by the server. */
  rationed: boolean;
  name: string | null;
  signed_in: boolean;
  /** The mirror this host's reads go to (DRIFTWATCH_DOCKERHUB_MIRROR), or null. */
  mirror: string | null;
  limit: number | null;
  window_seconds: number | null;
  remaining: number | null;
  /** Our pulls inside the current window, and ever. */
  pulls_in_window: number;
  pulls_total: number;
  /** When the next pull may be spent (now when one may), and when the whole budget is free again. */
  next_pull_at: string | null;
  full_at: string | null;
};

export async function listServerRegistries({ ctx }: { ctx: RequestCtx }): Promise<{ items: ServerRegistry[] }> {
  requireRole(ctx.actor, "viewer");
  const now = ctx.now;
  const hosts = [...new Set([...WELL_KNOWN_REGISTRIES, ...ctx.config.serverRegistries, ...ctx.config.dockerHubHosts].map(normaliseRegistryHost))];
  // The budget of the identity the server reads as now: a sign-in's is not the anonymous one's.
  const stored = new Map((await listRegistryBudgets(ctx.db, now)).map((b) => [`${b.host}|${b.identity}`, b]));
  const items = hosts.map((host): ServerRegistry => {
    const rationed = rationedHost(ctx.config, host);
    const budget = rationed ? stored.get(`${rationed.host}|${rationed.identity}`) : undefined;
    // A mirror has a budget only once it passed the host's rate-limit headers on.
    if (!rationed || (rationed.mirror !== null && !budget)) {
      return { host, rationed: false, name: rationed?.profile.name ?? null, signed_in: rationed ? rationed.isSignedIn : ctx.config.registryCredentials[host] !== undefined, mirror: rationed?.mirror ?? null, limit: null, window_seconds: null, remaining: null, pulls_in_window: 0, pulls_total: 0, next_pull_at: null, full_at: null };
    }
    const view = budget?.view ?? freshBudgetView(rationed);
    const inWindow = view.pulls.filter((p) => p.at.getTime() > now.getTime() - view.windowMs);
    const newest = inWindow.at(-1);
    return {
      host,
      rationed: true,
      name: rationed.profile.name,
      signed_in: rationed.isSignedIn,
      mirror: rationed.mirror,
      limit: view.limit,
      window_seconds: view.windowMs / 1000,
      remaining: remainingPulls(view, now),
      pulls_in_window: inWindow.length,
      pulls_total: budget?.pullsTotal ?? 0,
      next_pull_at: nextSpendAt(view, now, "resolve", 1).toISOString(),
      full_at: newest ? new Date(newest.at.getTime() + view.windowMs).toISOString() : null,
    };
  });
  return { items };
}
