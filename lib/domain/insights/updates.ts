// The updates list: one
// line per service and environment with open eol, upstream or env drift: every
// reason still open (most urgent first), the version to move to, and the
// promotion the pipeline offers before it. Lines whose drifts are all silenced
// go apart, with their acknowledgement.
import {
  findOldestInEnv, findOldestVersion, findSilencingAck, groupCurrentRuns, indexRunningVersions, indexUpstreamTargets, selectNewestOrNull,
  createVersionComparator, listHeldReleases,
  type AckRecord, type CurrentRun, type DifferenceReason, type DriftRecord, type EnvironmentInfo, type EnvRuns, type ServiceInput,
  type VersionComparator,
} from "@/lib/domain/drift";
import type { DriftKind } from "@/lib/domain/policy";
import type { UpstreamState } from "@/lib/domain/upstream";
import { jumpBetween } from "@/lib/domain/versions";
import { REASON_NAME } from "@/lib/domain/words";

export type UpdateReason = DifferenceReason;

/** Most urgent first. */
export const UPDATE_REASONS = ["eol_passed", "eol_soon", "major", "minor", "behind_previous_env", "patch"] as const satisfies readonly UpdateReason[];

export const REASON_RANK: Readonly<Record<UpdateReason, number>> = Object.fromEntries(UPDATE_REASONS.map((r, i) => [r, i])) as Record<UpdateReason, number>;

const UPDATE_KINDS: ReadonlySet<DriftKind> = new Set(["eol", "upstream", "env"]);

/** A live drift record, with the reason detection gave it (recomputed here when missing). */
export type UpdateDrift = Pick<DriftRecord, "serviceId" | "environmentId" | "kind" | "state" | "openedAt" | "running" | "expected"> & {
  reason?: UpdateReason;
};

export type UpdateLineAck = {
  id: string;
  kind: AckRecord["kind"];
  until_version: string | null;
  skip_version: string | null;
  expires_at: Date | null;
};

/** The pipeline's next step: what the previous environment runs, newer than what runs here. */
export type UpdatePromote = { from_environment: string; version: string };

/** A target of the line's environment; `moves` where it runs something older than the line's next step (or unknown). */
export type UpdateTarget = { name: string; version: string; moves: boolean };

export type UpdateLine = {
  service: string;
  application: string | null;
  team: string | null;
  environment: string;
  production: boolean;
  /** The oldest version running there: the one a move replaces everywhere. */
  running: string;
  target_version: string | null;
  release_notes_url: string | null;
  /** The first of `reasons`. */
  reason: UpdateReason;
  /** Every reason not silenced, most urgent first; for an acknowledged line, the reasons its acknowledgements silence. */
  reasons: UpdateReason[];
  promote: UpdatePromote | null;
  /** The environment's targets, and which must move: "one target on 4.7.1, one on 4.8.0" says which. */
  targets: UpdateTarget[];
  upstream_state: UpstreamState;
  /** When the drift behind `reason` opened. */
  open_since: Date;
  ack: UpdateLineAck | null;
  /** Newer releases the policy's minimum release age holds back, oldest first, with when each stops waiting. */
  waiting: { version: string; until: Date }[];
};

export type BuildUpdatesInput = {
  drifts: readonly UpdateDrift[];
  services: readonly ServiceInput[];
  environments: readonly EnvironmentInfo[];
  current: readonly CurrentRun[];
  acks: readonly AckRecord[];
  releaseNotes: (serviceId: string, version: string) => string | null;
  /** serviceId → upstream state; missing: `ok` where upstream tags are known, else `unchecked`. */
  upstreamStates?: ReadonlyMap<string, UpstreamState>;
  now: Date;
};

type Candidate = { line: UpdateLine; position: number };
type Ranked = { drift: UpdateDrift; reason: UpdateReason };

export function buildUpdates(input: BuildUpdatesInput): { items: UpdateLine[]; acknowledged: UpdateLine[] } {
  const services = new Map(input.services.map((s) => [s.id, s] as const));
  const environments = new Map(input.environments.map((e) => [e.id, e] as const));
  const pipeline = [...input.environments].sort((a, b) => a.position - b.position);
  const runs = groupCurrentRuns(input.current);
  const silence = {
    acks: input.acks,
    runningVersions: indexRunningVersions(input.current),
    now: input.now,
    upstreamTargets: indexUpstreamTargets(input.drifts),
  };
  const compare = createVersionComparator();

  const groups = new Map<string, UpdateDrift[]>();
  for (const drift of input.drifts) {
    if (drift.state === "resolved" || !UPDATE_KINDS.has(drift.kind)) continue;
    const key = `${drift.serviceId}\n${drift.environmentId}`;
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [drift]);
    else list.push(drift);
  }

  const items: Candidate[] = [];
  const acknowledged: Candidate[] = [];
  for (const drifts of groups.values()) {
    const first = drifts[0] as UpdateDrift;
    const service = services.get(first.serviceId);
    const env = environments.get(first.environmentId);
    if (service === undefined || env === undefined) continue;
    const byEnv = runs.get(service.id);
    const rows = byEnv?.get(env.id)?.effective ?? [];
    const running = findOldestVersion(rows, compare)?.version ?? first.running;
    if (running === null) continue;

    const ranked = drifts
      .map((drift): Ranked => ({ drift, reason: drift.reason ?? inferReason(drift, service, running, input.now) }))
      .sort((a, b) => REASON_RANK[a.reason] - REASON_RANK[b.reason] || a.drift.openedAt.getTime() - b.drift.openedAt.getTime());
    const silencers = ranked.map((r) => findSilencingAck(r.drift, silence));
    const open = ranked.filter((_, i) => silencers[i] === null);
    const isAcked = open.length === 0;
    const shown = isAcked ? ranked : open;
    const top = shown[0] as Ranked;
    const topAck = isAcked ? silencers[0] ?? null : null;

    const newest = selectNewestOrNull(service, running, input.now);
    const envDrift = drifts.find((d) => d.kind === "env");
    const target = newest?.target ?? newest?.newest ?? envDrift?.expected ?? null;
    const promote = byEnv === undefined ? null : findPromotion(byEnv, pipeline, env, running, compare);
    const line: UpdateLine = {
      service: service.name,
      application: service.application,
      team: service.team,
      environment: env.name,
      production: env.production,
      running,
      target_version: target,
      release_notes_url: target === null ? null : input.releaseNotes(service.id, target),
      reason: top.reason,
      reasons: uniqueReasons(shown),
      promote,
      targets: listTargets(rows, promote?.version ?? target, compare),
      upstream_state: input.upstreamStates?.get(service.id) ?? (service.upstream === null ? "unchecked" : "ok"),
      open_since: top.drift.openedAt,
      ack: topAck === null ? null : toLineAck(topAck),
      waiting: listHeldReleases(service, running, input.now),
    };
    (isAcked ? acknowledged : items).push({ line, position: env.position });
  }
  return { items: sortLines(items), acknowledged: sortLines(acknowledged) };
}

function toLineAck(ack: AckRecord): UpdateLineAck {
  return { id: ack.id, kind: ack.kind, until_version: ack.untilVersion, skip_version: ack.skipVersion ?? null, expires_at: ack.expiresAt };
}

function uniqueReasons(ranked: readonly Ranked[]): UpdateReason[] {
  const out: UpdateReason[] = [];
  for (const { reason } of ranked) if (!out.includes(reason)) out.push(reason);
  return out;
}

/** The nearest earlier environment that runs the service, when its oldest version is newer than `running`. */
function findPromotion(
  byEnv: ReadonlyMap<string, EnvRuns>,
  pipeline: readonly EnvironmentInfo[],
  here: EnvironmentInfo,
  running: string,
  compare: VersionComparator,
): UpdatePromote | null {
  for (let i = pipeline.findIndex((e) => e.id === here.id) - 1; i >= 0; i--) {
    const previous = pipeline[i] as EnvironmentInfo;
    const runs = byEnv.get(previous.id);
    if (runs === undefined || runs.effective.length === 0) continue;
    const ahead = findOldestInEnv(runs, compare);
    if (ahead === null) return null;
    return (compare(ahead.version, running) ?? 0) > 0 ? { from_environment: previous.name, version: ahead.version } : null;
  }
  return null;
}

/** Each target once (its oldest version), and whether it runs something older than `next`. */
function listTargets(rows: readonly CurrentRun[], next: string | null, compare: VersionComparator): UpdateTarget[] {
  const byName = new Map<string, CurrentRun[]>();
  for (const row of rows) byName.set(row.targetName, [...(byName.get(row.targetName) ?? []), row]);
  return [...byName].map(([name, own]) => {
    const oldest = findOldestVersion(own, compare);
    const version = oldest?.version ?? own[0]?.tag ?? "";
    const moves = next === null || oldest === null || (compare(oldest.version, next) ?? -1) < 0;
    return { name, version, moves };
  }).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Which targets of a line must move, where its environment has several:
 * `move k8s@prod-eu (runs 4.7.1); k8s@prod-us runs 4.8.0 already`, `on both targets`.
 * Null for one target (the environment says it all).
 */
export function describeLineTargets(line: { targets?: readonly UpdateTarget[] }): string | null {
  const targets = line.targets ?? [];
  if (targets.length <= 1) return null;
  const moving = targets.filter((t) => t.moves);
  const staying = targets.filter((t) => !t.moves);
  if (staying.length === 0) return targets.length === 2 ? "on both targets" : `on all ${targets.length} targets`;
  const move = moving.map((t) => `${t.name} (runs ${t.version})`).join(", ");
  const stay = staying.map((t) => `${t.name} runs ${t.version}`).join(", ");
  return `move ${move}; ${stay} already`;
}

/** Reason of a drift that came without one: from its kind, jump or end-of-life date. */
function inferReason(drift: UpdateDrift, service: ServiceInput, running: string, now: Date): UpdateReason {
  if (drift.kind === "env") return "behind_previous_env";
  if (drift.kind === "eol") {
    const eolDate = service.eol.get(drift.running ?? running)?.eolDate ?? null;
    return eolDate !== null && eolDate <= now ? "eol_passed" : "eol_soon";
  }
  return (drift.expected === null ? null : jumpBetween(drift.running ?? running, drift.expected)) ?? "patch";
}

/** Urgency, then production first, then open longest, then by name for a stable order. */
function sortLines(candidates: Candidate[]): UpdateLine[] {
  return candidates
    .sort((a, b) =>
      REASON_RANK[a.line.reason] - REASON_RANK[b.line.reason] ||
      Number(b.line.production) - Number(a.line.production) ||
      a.line.open_since.getTime() - b.line.open_since.getTime() ||
      a.line.service.localeCompare(b.line.service) ||
      a.position - b.position)
    .map((c) => c.line);
}

/** What the checklist and the move column read of a line (the API's line has them all). */
export type MoveLine = Pick<UpdateLine, "running" | "target_version"> & { promote?: UpdatePromote | null; targets?: readonly UpdateTarget[]; reasons?: readonly UpdateReason[] };

/** One line's move, the promotion first: `4.2.0 → 4.3.1 (from staging), then 5.0.0`. */
export function describeLineMove(line: MoveLine): string {
  const target = line.target_version ?? "?";
  if (line.promote === undefined || line.promote === null) return `${line.running} → ${target}`;
  const step = `${line.running} → ${line.promote.version} (from ${line.promote.from_environment})`;
  return line.target_version === null || line.target_version === line.promote.version ? step : `${step}, then ${target}`;
}

/** Markdown checkboxes for the copy-as-checklist action, one per line: the move, why, and which targets. */
export function updatesChecklist(lines: readonly (MoveLine & Pick<UpdateLine, "service" | "environment">)[]): string {
  return lines.map((l) => [`- [ ] ${l.service} (${l.environment}): ${describeLineMove(l)}`, describeReasons(l.reasons), describeLineTargets(l)].filter(Boolean).join(" · ")).join("\n");
}

/** `End of life passed, Major release`: the line's reasons by their one name. */
export function describeReasons(reasons: readonly UpdateReason[] | undefined): string | null {
  return reasons === undefined || reasons.length === 0 ? null : reasons.map((r) => REASON_NAME[r]).join(", ");
}

/** Counts for the urgency tiles: every reason of every line, so they agree with the matrix. */
export function countUpdatesByReason(lines: readonly (Pick<UpdateLine, "reason"> & { reasons?: readonly UpdateReason[] })[]): Record<UpdateReason, number> {
  const counts = Object.fromEntries(UPDATE_REASONS.map((r) => [r, 0])) as Record<UpdateReason, number>;
  for (const line of lines) {
    const reasons = line.reasons !== undefined && line.reasons.length > 0 ? line.reasons : [line.reason];
    for (const reason of new Set(reasons)) counts[reason] += 1;
  }
  return counts;
}
