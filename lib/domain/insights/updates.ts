// The updates list: one
// line per service and environment with open eol, upstream or env drift, with
// the most urgent reason, the version to move to and its release notes.
import {
  findOldestVersion, findSilencingAck, groupCurrentRuns, indexRunningVersions, selectNewestOrNull, createVersionComparator,
  type AckRecord, type CurrentRun, type DifferenceReason, type DriftRecord, type EnvironmentInfo, type ServiceInput,
} from "@/lib/domain/drift";
import type { DriftKind } from "@/lib/domain/policy";
import { jumpBetween } from "@/lib/domain/versions";

export type UpdateReason = DifferenceReason;

/** Most urgent first. */
export const UPDATE_REASONS = ["eol_passed", "eol_soon", "major", "minor", "behind_previous_env", "patch"] as const satisfies readonly UpdateReason[];

const REASON_RANK: Readonly<Record<UpdateReason, number>> = Object.fromEntries(UPDATE_REASONS.map((r, i) => [r, i])) as Record<UpdateReason, number>;

const UPDATE_KINDS: ReadonlySet<DriftKind> = new Set(["eol", "upstream", "env"]);

/** A live drift record, with the reason detection gave it (recomputed here when missing). */
export type UpdateDrift = Pick<DriftRecord, "serviceId" | "environmentId" | "kind" | "state" | "openedAt" | "running" | "expected"> & {
  reason?: UpdateReason;
};

export type UpdateLineAck = { id: string; kind: AckRecord["kind"]; until_version: string | null; expires_at: Date | null };

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
  reason: UpdateReason;
  open_since: Date;
  ack: UpdateLineAck | null;
};

export type BuildUpdatesInput = {
  drifts: readonly UpdateDrift[];
  services: readonly ServiceInput[];
  environments: readonly EnvironmentInfo[];
  current: readonly CurrentRun[];
  acks: readonly AckRecord[];
  releaseNotes: (serviceId: string, version: string) => string | null;
  now: Date;
};

type Candidate = { line: UpdateLine; position: number };

export function buildUpdates(input: BuildUpdatesInput): { items: UpdateLine[]; acknowledged: UpdateLine[] } {
  const services = new Map(input.services.map((s) => [s.id, s] as const));
  const environments = new Map(input.environments.map((e) => [e.id, e] as const));
  const runs = groupCurrentRuns(input.current);
  const runningVersions = indexRunningVersions(input.current);
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
    const rows = runs.get(service.id)?.get(env.id)?.effective ?? [];
    const running = findOldestVersion(rows, compare)?.version ?? first.running;
    if (running === null) continue;

    const ranked = drifts
      .map((drift) => ({ drift, reason: drift.reason ?? inferReason(drift, service, running, input.now) }))
      .sort((a, b) => REASON_RANK[a.reason] - REASON_RANK[b.reason]);
    const top = ranked[0] as (typeof ranked)[number];
    const silencers = drifts.map((d) => findSilencingAck(d, { acks: input.acks, runningVersions, now: input.now }));
    const isAcked = silencers.every((a) => a !== null);
    const topAck = isAcked ? findSilencingAck(top.drift, { acks: input.acks, runningVersions, now: input.now }) : null;

    const newest = selectNewestOrNull(service, running);
    const envDrift = drifts.find((d) => d.kind === "env");
    const target = newest?.target ?? newest?.newest ?? envDrift?.expected ?? null;
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
      open_since: new Date(Math.min(...drifts.map((d) => d.openedAt.getTime()))),
      ack: topAck === null ? null : { id: topAck.id, kind: topAck.kind, until_version: topAck.untilVersion, expires_at: topAck.expiresAt },
    };
    (isAcked ? acknowledged : items).push({ line, position: env.position });
  }
  return { items: sortLines(items), acknowledged: sortLines(acknowledged) };
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

/** Markdown checkboxes for the copy-as-checklist action. */
export function updatesChecklist(lines: readonly UpdateLine[]): string {
  return lines
    .map((l) => `- [ ] ${l.service} (${l.environment}): ${l.running} → ${l.target_version ?? "?"}`)
    .join("\n");
}

/** Counts for the urgency tiles, every reason present. */
export function countUpdatesByReason(lines: readonly UpdateLine[]): Record<UpdateReason, number> {
  const counts = Object.fromEntries(UPDATE_REASONS.map((r) => [r, 0])) as Record<UpdateReason, number>;
  for (const line of lines) counts[line.reason] += 1;
  return counts;
}
