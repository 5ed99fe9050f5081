// The workspace calendar's events: one all-day event per end-of-life date of a
// cycle that runs somewhere; one per open drift on the day its kind's
// `drift_alert_after` delay announces it; and one per announced drift put off
// for a while, on the day the put-off ends. Pure: the caller reads the inputs.
import { DRIFT_KIND_NAME, inSentence } from "@/lib/domain/words";
import type { DriftKind, EffectivePolicy } from "./policy";
import {
  alertDelayMs, findSilencingAck, indexRunningVersions, indexUpstreamTargets, type AckRecord, type CurrentRun, type EnvironmentInfo, type ServiceInput,
} from "./drift";

export type CalendarEvent = {
  /** Stable across requests, so calendar applications update an event instead of adding another. */
  uid: string;
  /** The day, `YYYY-MM-DD` (UTC). */
  day: string;
  summary: string;
  description: string;
};

export type CalendarDrift = {
  id: string;
  serviceId: string;
  environmentId: string;
  service: string;
  environment: string;
  kind: DriftKind;
  state: "open" | "announced";
  running: string | null;
  expected: string | null;
  openedAt: Date;
};

export type CalendarInput = {
  workspaceId: string;
  environments: readonly Pick<EnvironmentInfo, "id" | "name" | "position">[];
  services: readonly Pick<ServiceInput, "id" | "name" | "eol">[];
  current: readonly CurrentRun[];
  /** Live drift records. */
  drifts: readonly CalendarDrift[];
  /** Acknowledgements not lifted or expired. */
  acks: readonly AckRecord[];
  policies: ReadonlyMap<string, EffectivePolicy>;
  now: Date;
};

const kindName = (kind: DriftKind) => inSentence(DRIFT_KIND_NAME[kind]);

export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Every event of the workspace, by day, then summary. */
export function planCalendarEvents(input: CalendarInput): CalendarEvent[] {
  return [...eolEvents(input), ...announcementEvents(input), ...putOffEvents(input)].sort((a, b) => cmp(a.day, b.day) || cmp(a.summary, b.summary) || cmp(a.uid, b.uid));
}

function eolEvents({ workspaceId, environments, services, current }: CalendarInput): CalendarEvent[] {
  const envById = new Map(environments.map((e) => [e.id, e] as const));
  const serviceById = new Map(services.map((s) => [s.id, s] as const));
  type Cycle = { product: string; cycle: string; day: string; uses: Map<string, { service: string; env: string; position: number; versions: Set<string> }> };
  const cycles = new Map<string, Cycle>();
  for (const run of current) {
    if (run.version === null) continue;
    const service = serviceById.get(run.serviceId);
    const env = envById.get(run.environmentId);
    const info = service?.eol.get(run.version);
    if (!service || !env || !info?.eolDate) continue;
    const key = `${info.product}\n${info.cycle}`;
    let cycle = cycles.get(key);
    if (cycle === undefined) cycles.set(key, (cycle = { product: info.product, cycle: info.cycle, day: dayOf(info.eolDate), uses: new Map() }));
    const useKey = `${service.name}\n${env.name}`;
    let use = cycle.uses.get(useKey);
    if (use === undefined) cycle.uses.set(useKey, (use = { service: service.name, env: env.name, position: env.position, versions: new Set() }));
    use.versions.add(run.version);
  }
  return [...cycles.values()].map((c) => {
    const uses = [...c.uses.values()].sort((a, b) => cmp(a.service, b.service) || a.position - b.position);
    const lines = uses.map((u) => `${u.service} · ${u.env} (${[...u.versions].sort().join(", ")})`);
    return {
      uid: `eol.${c.product}.${c.cycle}.${workspaceId}@driftwatch`,
      day: c.day,
      summary: `${c.product} ${c.cycle} reaches end of life`,
      description: `Runs in:\n${lines.join("\n")}`,
    };
  });
}

/** A drift still open is announced (notified, badged) once its kind's delay has passed since it began. */
function announcementEvents({ workspaceId, drifts, policies }: CalendarInput): CalendarEvent[] {
  return drifts.flatMap((d) => {
    if (d.state !== "open") return [];
    const at = new Date(d.openedAt.getTime() + alertDelayMs(policies.get(d.serviceId), d.kind));
    return [{
      uid: `drift.${d.id}.${workspaceId}@driftwatch`,
      day: dayOf(at),
      summary: `${d.service} in ${d.environment}: ${kindName(d.kind)}, notifications start`,
      description: `${d.service} in ${d.environment}: ${kindName(d.kind)}${moveOf(d)} since ${d.openedAt.toISOString()}; unless it is resolved, notifications are sent at ${at.toISOString()}.`,
    }];
  });
}

/** An announced drift silenced by an acknowledgement with an end: its notifications and badge come back then. */
function putOffEvents({ workspaceId, drifts, acks, current, now }: CalendarInput): CalendarEvent[] {
  const announced = drifts.filter((d) => d.state === "announced");
  if (announced.length === 0 || acks.length === 0) return [];
  const silence = { acks, runningVersions: indexRunningVersions(current), now, upstreamTargets: indexUpstreamTargets(drifts) };
  return announced.flatMap((d) => {
    const ack = findSilencingAck(d, silence);
    if (ack?.expiresAt == null) return [];
    return [{
      uid: `putoff.${ack.id}.${d.id}.${workspaceId}@driftwatch`,
      day: dayOf(ack.expiresAt),
      summary: `${d.service} in ${d.environment}: put-off of ${kindName(d.kind)} ends`,
      description: `${d.service} in ${d.environment}: ${kindName(d.kind)}${moveOf(d)}; it was put off until ${ack.expiresAt.toISOString()}, when notifications start again unless it is resolved.`,
    }];
  });
}

function moveOf(d: Pick<CalendarDrift, "running" | "expected">): string {
  return d.running !== null && d.expected !== null ? ` (${d.running} → ${d.expected})` : d.running !== null ? ` (${d.running})` : "";
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
