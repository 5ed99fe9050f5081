// The monthly report (spec "Monthly report"): one month of a workspace. What
// exists (services, targets), what was deployed where with lead times, which
// new upstream releases came out for what runs, and what needs attention now,
// most important first. Read through the same services as the API.
import { loadServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { listTagsFirstSeen } from "@/lib/db/queries/upstream/list-tags-first-seen";
import { listVisibleRepositories } from "@/lib/db/queries/upstream/list-visible-repositories";
import { describeLineMove, describeLineTargets, type DeliveryStats } from "@/lib/domain/insights";
import { DRIFT_KIND_NAME, REASON_NAME } from "@/lib/domain/words";
import { compareTags, likeGroupKey, parseTag } from "@/lib/domain/versions";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { describeService } from "../services/describe";
import { loadArrivalIndex } from "../insights/delivery-arrivals";
import { getMatrix } from "../matrix/get";
import { catalogFor } from "../services/catalog-lookup";
import { listUpdates } from "../insights/updates";
import { lookupReleases, type ReleaseSource } from "../insights/releases";
import { listDrifts } from "../drift/list-drifts";
import { cachedDriftInputs } from "../insights/fleet";
import { listTargets } from "../targets/list";
import type { Policy } from "@/lib/domain/policy";

const DAY = 86_400_000;
/** Longest lists printed in full; the rest is counted. */
export const REPORT_LIST_LIMIT = 60;

export type Arrival = { service: string; version: string; at: string; lead_seconds: number | null; from_environment: string | null };
export type AttentionItem = { rank: number; service: string; environment: string; what: string; detail: string; since: string };

export type MonthlyReport = {
  month: string;
  from: string;
  to: string;
  generated_at: string;
  services: { total: number; by_team: { team: string; count: number }[] };
  targets: Awaited<ReturnType<typeof listTargets>>["items"];
  delivery: DeliveryStats;
  arrivals: { environment: string; items: Arrival[]; more: number }[];
  releases: { items: { service: string; version: string; date: string; release_notes_url: string | null }[]; more: number };
  attention: { items: AttentionItem[]; more: number };
};

/** `2026-11` → its first instant and the next month's, in UTC; null when malformed. */
export function monthRange(month: string): { from: Date; to: Date } | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]) - 1;
  return { from: new Date(Date.UTC(y, mo, 1)), to: new Date(Date.UTC(y, mo + 1, 1)) };
}

export function currentMonth(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
}

const REASON_RANK: Record<string, { rank: number; what: string }> = {
  eol_passed: { rank: 0, what: REASON_NAME.eol_passed },
  eol_soon: { rank: 1, what: REASON_NAME.eol_soon },
  declared: { rank: 2, what: DRIFT_KIND_NAME.declared },
  major: { rank: 3, what: REASON_NAME.major },
  inconsistent: { rank: 4, what: DRIFT_KIND_NAME.inconsistent },
  minor: { rank: 5, what: REASON_NAME.minor },
  behind_previous_env: { rank: 6, what: REASON_NAME.behind_previous_env },
  patch: { rank: 7, what: REASON_NAME.patch },
};

export async function getMonthlyReport({ ctx, input: { month } }: { ctx: RequestCtx; input: { month: string } }): Promise<MonthlyReport> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const range = monthRange(month)!;
  const now = ctx.now;
  const to = new Date(Math.min(range.to.getTime(), now.getTime()));
  const [facts, targets, arrivalIndex, updates, matrix, gitDifferences] = await Promise.all([
    loadServiceFacts(ctx.db, workspaceId),
    listTargets({ ctx }),
    loadArrivalIndex(ctx, workspaceId, { from: range.from, to }),
    listUpdates({ ctx }),
    getMatrix({ ctx, input: {} }),
    listDrifts({ ctx, input: { kind: "declared" } }),
  ]);

  // Services by team.
  const teams = new Map<string, number>();
  for (const f of facts) teams.set(f.team ?? "no team", (teams.get(f.team ?? "no team") ?? 0) + 1);

  // Deploys and lead times, by the delivery statistics' own rule.
  const delivery = arrivalIndex.stats({ from: range.from, to });
  const environments = arrivalIndex.environments;
  const nameOf = new Map(facts.map((f) => [f.id, f.name] as const));
  const arrivals = environments.map((env, i) => {
    const items: Arrival[] = [];
    const prev = environments[i - 1];
    for (const { serviceId, version, arrivals: at } of arrivalIndex.versions()) {
      const t = at[i] as number;
      if (!(t >= range.from.getTime() && t < to.getTime())) continue; // NaN: never arrived here
      const p = i > 0 ? (at[i - 1] as number) : Number.NaN;
      items.push({ service: nameOf.get(serviceId) ?? serviceId, version, at: new Date(t).toISOString(), lead_seconds: p <= t ? Math.round((t - p) / 1000) : null, from_environment: prev?.name ?? null });
    }
    items.sort((a, b) => a.at.localeCompare(b.at));
    return { environment: env.name, items: items.slice(0, REPORT_LIST_LIMIT), more: Math.max(0, items.length - REPORT_LIST_LIMIT) };
  });

  // New upstream releases of the line each service runs, first seen this month (as the service page lists them).
  const releases = await newReleases(ctx, workspaceId, facts, matrix, range.from, to);

  // What needs attention now: the Updates list's own lines, in its order, so the counts agree.
  // Then what runs against what Git declares (spec "Declared versus running"), which Updates leaves to the matrix.
  const attention: AttentionItem[] = updates.items.map((l) => {
    const targets = describeLineTargets(l);
    return {
      rank: REASON_RANK[l.reason]?.rank ?? 9, service: l.service, environment: l.environment, what: REASON_RANK[l.reason]?.what ?? l.reason,
      detail: `runs ${describeLineMove(l)}${targets ? `; ${targets}` : ""}${l.upstream_state === "ok" ? "" : ` (upstream ${l.upstream_state})`}`, since: l.open_since,
    };
  });
  for (const d of gitDifferences.items) {
    attention.push({
      rank: REASON_RANK.declared?.rank ?? 2, service: d.service, environment: d.environment, what: DRIFT_KIND_NAME.declared,
      detail: `runs ${d.running ?? "?"}${d.target ? ` on ${d.target}` : ""}; Git declares ${d.expected ?? "?"}`, since: d.opened_at,
    });
  }

  return {
    month,
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    generated_at: now.toISOString(),
    services: { total: facts.length, by_team: [...teams].map(([team, count]) => ({ team, count })).sort((a, b) => b.count - a.count || a.team.localeCompare(b.team)) },
    targets: targets.items,
    delivery,
    arrivals,
    releases,
    attention: { items: attention.slice(0, REPORT_LIST_LIMIT), more: Math.max(0, attention.length - REPORT_LIST_LIMIT) },
  };
}

async function newReleases(
  ctx: RequestCtx, workspaceId: string, facts: Awaited<ReturnType<typeof loadServiceFacts>>, matrix: Awaited<ReturnType<typeof getMatrix>>, from: Date, to: Date,
): Promise<MonthlyReport["releases"]> {
  const byName = new Map(matrix.services.map((s) => [s.name, s] as const));
  const lines = new Map<string, { serviceId: string; name: string; repository: string; groups: Set<string> }>();
  for (const f of facts) {
    const repository = f.repository ?? f.runningRepository;
    const row = byName.get(f.name);
    if (!repository || !row) continue;
    const groups = new Set(row.cells.flatMap((c) => c.targets.map((t) => (t.version ? likeGroupKey(t.version) : null))).filter((g): g is string => g !== null));
    if (groups.size) lines.set(f.id, { serviceId: f.id, name: f.name, repository, groups });
  }
  const keys = [...new Set([...lines.values()].map((l) => l.repository))];
  if (keys.length === 0) return { items: [], more: 0 };
  // Releases newer than the oldest version running of their line: those the forge dates are counted by that date.
  const oldestRunning = new Map<string, string>();
  for (const line of lines.values()) {
    const versions = (byName.get(line.name)?.cells ?? []).flatMap((c) => c.targets.map((t) => t.version)).filter((v): v is string => v !== null);
    const oldest = versions.sort((a, b) => compareTags(a, b) ?? 0)[0];
    if (oldest) oldestRunning.set(line.serviceId, oldest);
  }
  const repos = await listVisibleRepositories(ctx.db, workspaceId, keys);
  const repoOf = new Map<string, (typeof repos)[number]>();
  for (const r of repos) if (!repoOf.has(r.key) || r.ownerWorkspaceId) repoOf.set(r.key, r);
  // Tags seen within a day of the repository's first listing were old releases, not new ones.
  const tags = await listTagsFirstSeen(ctx.db, [...repoOf.values()].map((r) => r.id), from, to);
  const createdAt = new Map([...repoOf.values()].map((r) => [r.id, r.createdAt.getTime()] as const));
  const byRepo = new Map<string, { name: string; at: Date }[]>();
  for (const t of tags) {
    if (t.firstSeenAt.getTime() < (createdAt.get(t.repositoryId) ?? 0) + DAY) continue;
    const p = parseTag(t.name);
    if (p.kind !== "version" || p.isPrerelease) continue;
    byRepo.set(t.repositoryId, [...(byRepo.get(t.repositoryId) ?? []), { name: t.name, at: t.firstSeenAt }]);
  }
  const found: { serviceId: string; service: string; version: string; at: Date }[] = [];
  for (const line of lines.values()) {
    const repo = repoOf.get(line.repository);
    for (const t of (repo ? byRepo.get(repo.id) : undefined) ?? []) {
      const group = likeGroupKey(t.name);
      if (group !== null && line.groups.has(group)) found.push({ serviceId: line.serviceId, service: line.name, version: t.name, at: t.at });
    }
  }
  const sources = new Map<string, ReleaseSource>();
  for (const f of facts) {
    if (!lines.has(f.id)) continue;
    const described = describeService(f, { gitlabUrl: ctx.config.gitlabUrl, now: ctx.now });
    const own = (f.policy ?? null) as Policy | null;
    const catalog = described.repository ? catalogFor(described.repository) : null;
    const { kind, repository } = described.release_source;
    sources.set(f.id, { forge: kind && repository ? { kind, repository } : null, tagPrefix: own?.release_tag_prefix ?? catalog?.release_tag_prefix ?? null, changelog: own?.changelog ?? catalog?.changelog ?? null });
  }
  const upstreamTags = (await cachedDriftInputs(ctx, workspaceId)).upstreamTags;
  const candidates = [...lines.values()].flatMap((line) => {
    const oldest = oldestRunning.get(line.serviceId);
    return (upstreamTags.get(line.serviceId) ?? []).filter((tag) => {
      const p = parseTag(tag);
      const group = likeGroupKey(tag);
      return p.kind === "version" && !p.isPrerelease && group !== null && line.groups.has(group) && (oldest === undefined || (compareTags(tag, oldest) ?? 0) > 0);
    }).map((version) => ({ serviceId: line.serviceId, service: line.name, version }));
  });
  const notes = await lookupReleases(ctx.db, sources, [...found, ...candidates].map((f) => ({ serviceId: f.serviceId, version: f.version })));
  // A release's date is when the forge says it was published, else when its tag was first seen:
  // a release first seen this month but published long before is not new, one published this month is.
  const dated = new Map<string, { serviceId: string; service: string; version: string; at: Date }>();
  for (const c of candidates) {
    const published = notes(c.serviceId, c.version).published_at;
    if (published && published >= from && published < to) dated.set(`${c.serviceId}\n${c.version}`, { ...c, at: published });
  }
  for (const f of found) if (notes(f.serviceId, f.version).published_at === null) dated.set(`${f.serviceId}\n${f.version}`, f);
  const items = [...dated.values()]
    .map((f) => {
      const info = notes(f.serviceId, f.version);
      return { service: f.service, version: f.version, date: f.at.toISOString(), release_notes_url: info.release_notes_url };
    })
    .sort((a, b) => a.service.localeCompare(b.service) || (compareTags(b.version, a.version) ?? 0));
  return { items: items.slice(0, REPORT_LIST_LIMIT), more: Math.max(0, items.length - REPORT_LIST_LIMIT) };
}
