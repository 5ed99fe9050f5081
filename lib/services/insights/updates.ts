// The updates list: live eol, upstream and env drift
// per service and environment, one line each, most urgent first, with the
// version to move to and its release notes; put-off lines apart.
import type { z } from "zod";
import type { updatesQuerySchema, updatesSchema } from "@/lib/services/insights/schemas";
import { listAcksInForce } from "@/lib/db/queries/acks/list-acks-in-force";
import { listUpdateDrifts } from "@/lib/db/queries/drifts/list-update-drifts";
import type { AckRecord } from "@/lib/domain/drift";
import { buildUpdates, updatesChecklist, type UpdateDrift, type UpdateLine } from "@/lib/domain/insights";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { cachedInsight, INSIGHTS_CACHE_TTL_MS } from "../cache/insights-cache";
import { nextUpstreamStaleAt } from "../upstream/status";
import { cachedDriftInputs, loadFleet } from "./fleet";
import { lookupReleases } from "./releases";

export type UpdatesQuery = z.infer<typeof updatesQuerySchema>;
export type UpdatesOut = z.infer<typeof updatesSchema>;
type LineOut = UpdatesOut["items"][number];

const UPDATE_KINDS = ["eol", "upstream", "env"] as const;

/** The updates list as domain lines (dates as Date), for the API and the page. */
export async function buildUpdateLines({ ctx, input: query }: { ctx: RequestCtx; input: UpdatesQuery }): Promise<{ items: UpdateLine[]; acknowledged: UpdateLine[] }> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const now = ctx.now;
  const [fleet, driftRows, ackRows] = await Promise.all([
    loadFleet(ctx, workspaceId, { team: query.team, application: query.application }),
    listUpdateDrifts(ctx.db, workspaceId, UPDATE_KINDS, query.environment),
    listAcksInForce(ctx.db, workspaceId, now),
  ]);

  // Reasons come from the kind, the jump and the end-of-life date (the drift inputs' cycles).
  const drifts: UpdateDrift[] = driftRows;
  const acks: AckRecord[] = ackRows;
  const built = buildUpdates({ drifts, services: fleet.services, environments: fleet.environments, current: fleet.current, acks, releaseNotes: () => null, upstreamStates: fleet.upstreamStates, now });

  // Release notes only for the versions the lines point at.
  const all = [...built.items, ...built.acknowledged];
  const wanted = all.flatMap((l) => {
    const id = fleet.byName.get(l.service)?.id;
    return id === undefined || l.target_version === null ? [] : [{ serviceId: id, version: l.target_version }];
  });
  const releases = await lookupReleases(ctx.db, fleet.releaseSources, wanted);
  const withNotes = (l: UpdateLine): UpdateLine => {
    const id = fleet.byName.get(l.service)?.id;
    return id === undefined || l.target_version === null ? l : { ...l, release_notes_url: releases(id, l.target_version).release_notes_url };
  };
  return { items: built.items.map(withNotes), acknowledged: built.acknowledged.map(withNotes) };
}

export async function listUpdates({ ctx, input: query = {} }: { ctx: RequestCtx; input?: UpdatesQuery }): Promise<UpdatesOut> {
  requireRole(ctx.actor, "viewer");
  const key = `${workspaceOf(ctx.actor)}:updates:${JSON.stringify([query.team, query.environment, query.application])}`;
  const { out } = await cachedInsight(
    ctx,
    key,
    async () => {
      const [{ items, acknowledged }, inputs] = await Promise.all([buildUpdateLines({ ctx, input: query }), cachedDriftInputs(ctx, workspaceOf(ctx.actor))]);
      return { out: { items: items.map(toLineOut), acknowledged: acknowledged.map(toLineOut) }, staleAt: nextUpstreamStaleAt(inputs.facts.map((f) => f.upstream)) };
    },
    // A line's upstream_state turns stale with the clock alone.
    { validUntil: (r, at) => Math.min(at + INSIGHTS_CACHE_TTL_MS, r.staleAt !== null && r.staleAt > at ? r.staleAt : Number.POSITIVE_INFINITY) },
  );
  return out;
}

/** Markdown checkboxes of the lines not put off (the page's copy-as-checklist action). */
export async function updatesChecklistText({ ctx, input: query = {} }: { ctx: RequestCtx; input?: UpdatesQuery }): Promise<string> {
  const { items } = await buildUpdateLines({ ctx, input: query });
  return updatesChecklist(items);
}

export function toLineOut(l: UpdateLine): LineOut {
  return {
    service: l.service,
    application: l.application,
    team: l.team,
    environment: l.environment,
    production: l.production,
    running: l.running,
    target_version: l.target_version,
    release_notes_url: l.release_notes_url,
    reason: l.reason,
    reasons: l.reasons,
    promote: l.promote,
    targets: l.targets,
    upstream_state: l.upstream_state,
    open_since: l.open_since.toISOString(),
    ack:
      l.ack === null
        ? null
        : { id: l.ack.id, kind: l.ack.kind, until_version: l.ack.until_version, skip_version: l.ack.skip_version, expires_at: l.ack.expires_at?.toISOString() ?? null },
    waiting: l.waiting.map((w) => ({ version: w.version, until: w.until.toISOString() })),
  };
}
