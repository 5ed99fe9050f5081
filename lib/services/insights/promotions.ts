// Promotion candidates: versions that run in one
// environment and wait for the next, longest waiting first, with the releases
// a promotion would bring.
import type { z } from "zod";
import type { promotionsSchema } from "@/lib/services/insights/schemas";
import { listPromotions } from "@/lib/domain/insights";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { cachedInsight } from "../cache/insights-cache";
import { loadFleet } from "./fleet";
import { lookupReleases, NO_RELEASE_INFO } from "./releases";

export type PromotionsOut = z.infer<typeof promotionsSchema>;

export async function listPromotionsForWorkspace({ ctx }: { ctx: RequestCtx }): Promise<PromotionsOut> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  return cachedInsight(ctx, `${workspaceId}:promotions`, () => computePromotions(ctx, workspaceId));
}

async function computePromotions(ctx: RequestCtx, workspaceId: string): Promise<PromotionsOut> {
  const fleet = await loadFleet(ctx, workspaceId);
  const now = ctx.now;
  const promotions = listPromotions({
    environments: fleet.environments, services: fleet.services, current: fleet.current,
    releaseInfo: () => NO_RELEASE_INFO, now,
  });

  const idOf = (name: string) => fleet.byName.get(name)?.id;
  const wanted = promotions.flatMap((p) => {
    const serviceId = idOf(p.service);
    return serviceId === undefined ? [] : p.releases.map((r) => ({ serviceId, version: r.version }));
  });
  const releases = await lookupReleases(ctx.db, fleet.releaseSources, wanted);

  return {
    items: promotions.map((p) => {
      const serviceId = idOf(p.service);
      return {
        service: p.service,
        from_environment: p.from_environment,
        to_environment: p.to_environment,
        from_version: p.from_version,
        to_version: p.to_version,
        waiting_since: p.waiting_since.toISOString(),
        waiting_seconds: p.waiting_seconds,
        releases: p.releases.map((r) => {
          const info = serviceId === undefined ? NO_RELEASE_INFO : releases(serviceId, r.version);
          // Without a forge release, a classic chart repository's own date (index.yaml's `created`).
          const indexed = serviceId !== undefined && fleet.releaseSources.get(serviceId)?.datedByIndex ? fleet.byName.get(p.service)?.upstream?.firstSeen.get(r.version) : undefined;
          const published = info.published_at ?? indexed ?? null;
          return { version: r.version, published_at: published?.toISOString() ?? null, release_notes_url: info.release_notes_url };
        }),
      };
    }),
  };
}
