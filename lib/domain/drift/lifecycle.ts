// Drift lifecycle: which records to open, announce,
// update and resolve for the differences that hold now, and which events to
// emit. Planning again with the result applied yields nothing.
import { parseDuration } from "@/lib/domain/duration";
import type { DriftKind, EffectivePolicy } from "@/lib/domain/policy";
import { findSilencingAck, indexUpstreamTargets, type SilenceDrift } from "./acks";
import type { RunningVersions } from "./runs";
import type { AckRecord, Difference, DriftRecord } from "./types";

const MINUTE = 60_000;

/** How long a drift lasts before it is announced, by kind, unless the policy's `drift_alert_after` says otherwise. */
export const DEFAULT_ALERT_AFTER_MS: Readonly<Record<DriftKind, number>> = {
  env: 7 * 24 * 60 * MINUTE,
  upstream: 0,
  inconsistent: 15 * MINUTE,
  declared: 30 * MINUTE,
  eol: 0,
};

export type DriftEvent = {
  type: "drift_detected" | "drift_resolved";
  /** The record id, or `serviceId:environmentId:kind` for a record opened by this plan. */
  driftKey: string;
  /** An active acknowledgement matches: record the event, do not notify. */
  silenced: boolean;
  serviceId: string;
  environmentId: string;
  kind: DriftKind;
  targetId: string | null;
  running: string | null;
  expected: string | null;
  openedAt: Date;
  at: Date;
};

export type PlanInput = {
  /** Live records (open or announced); resolved ones are ignored. */
  records: readonly DriftRecord[];
  differences: readonly Difference[];
  policies: ReadonlyMap<string, EffectivePolicy>;
  acks: readonly AckRecord[];
  currentVersions: RunningVersions;
  now: Date;
};

export type LifecyclePlan = {
  /** New records; `announcedAt` is set when the difference is already older than its delay. */
  toOpen: (Difference & { announcedAt: Date | null })[];
  toAnnounce: { id: string; announcedAt: Date }[];
  toResolve: { id: string; resolvedAt: Date }[];
  /** `openedAt` moves where what dates the difference is learned later (a forge's publication date, an end of life that passed). */
  toUpdate: { id: string; running: string; expected: string | null; targetId: string | null; openedAt: Date }[];
  events: DriftEvent[];
};

export function driftKeyOf(d: { serviceId: string; environmentId: string; kind: DriftKind }): string {
  return `${d.serviceId}:${d.environmentId}:${d.kind}`;
}

/** The announcement delay of a kind under a policy; an unreadable override falls back to the default. */
export function alertDelayMs(policy: EffectivePolicy | undefined, kind: DriftKind): number {
  const text = policy?.drift_alert_after?.[kind];
  const parsed = text === undefined ? null : parseDuration(text);
  return parsed ?? DEFAULT_ALERT_AFTER_MS[kind];
}

export function planLifecycle(input: PlanInput): LifecyclePlan {
  const { now } = input;
  const plan: LifecyclePlan = { toOpen: [], toAnnounce: [], toResolve: [], toUpdate: [], events: [] };
  const acksByService = groupAcks(input.acks);
  const upstreamTargets = indexUpstreamTargets(input.differences);
  const isSilenced = (d: SilenceDrift) =>
    findSilencingAck(d, { acks: acksByService.get(d.serviceId) ?? [], runningVersions: input.currentVersions, now, upstreamTargets }) !== null;
  const isDue = (d: { serviceId: string; kind: DriftKind }, openedAt: Date) =>
    now.getTime() - openedAt.getTime() >= alertDelayMs(input.policies.get(d.serviceId), d.kind);

  const live = new DriftSlots<DriftRecord>();
  for (const record of input.records) {
    if (record.state === "resolved") continue;
    if (live.get(record) !== undefined) resolve(plan, record, isSilenced, now); // a duplicate live record: keep one
    else live.set(record, record);
  }

  const seen = new DriftSlots<true>();
  for (const diff of input.differences) {
    if (seen.get(diff) !== undefined) continue;
    seen.set(diff, true);
    const record = live.get(diff);
    if (record === undefined) {
      const announcedAt = isDue(diff, diff.since) ? now : null;
      plan.toOpen.push({ ...diff, announcedAt });
      if (announcedAt !== null) plan.events.push(eventOf("drift_detected", driftKeyOf(diff), diff, diff.since, isSilenced(diff), now));
      continue;
    }
    // A drift moves to an earlier start learned later (a forge's publication date), and an end of
    // life to its day once it passes; a start dated `now` is no date at all (an end without a day).
    const since = diff.since.getTime();
    const redated = since < now.getTime() && (since < record.openedAt.getTime() || (diff.kind === "eol" && since > record.openedAt.getTime()));
    if (redated || record.running !== diff.running || record.expected !== diff.expected || record.targetId !== diff.targetId) {
      plan.toUpdate.push({ id: record.id, running: diff.running, expected: diff.expected, targetId: diff.targetId, openedAt: redated ? diff.since : record.openedAt });
    }
    if (record.state === "open" && isDue(record, record.openedAt)) {
      plan.toAnnounce.push({ id: record.id, announcedAt: now });
      const current = { ...record, running: diff.running, expected: diff.expected, targetId: diff.targetId };
      plan.events.push(eventOf("drift_detected", record.id, current, record.openedAt, isSilenced(current), now));
    }
  }

  // The kept live records in the order they came (the first of each key) that no difference holds.
  for (const record of input.records) {
    if (record.state !== "resolved" && live.get(record) === record && seen.get(record) === undefined) resolve(plan, record, isSilenced, now);
  }
  return plan;
}

function resolve(
  plan: LifecyclePlan,
  record: DriftRecord,
  isSilenced: (d: DriftRecord) => boolean,
  now: Date,
): void {
  // A clock set back must not end a drift before it began (or was announced): no negative durations.
  const floor = Math.max(record.openedAt.getTime(), record.announcedAt?.getTime() ?? 0);
  plan.toResolve.push({ id: record.id, resolvedAt: now.getTime() < floor ? new Date(floor) : now });
  // Only an announced drift was ever notified; one that ends before that stays quiet.
  if (record.state === "announced") plan.events.push(eventOf("drift_resolved", record.id, record, record.openedAt, isSilenced(record), now));
}

function eventOf(
  type: DriftEvent["type"],
  driftKey: string,
  d: { serviceId: string; environmentId: string; kind: DriftKind; targetId: string | null; running: string | null; expected: string | null },
  openedAt: Date,
  silenced: boolean,
  at: Date,
): DriftEvent {
  return {
    type, driftKey, silenced,
    serviceId: d.serviceId, environmentId: d.environmentId, kind: d.kind, targetId: d.targetId,
    running: d.running, expected: d.expected, openedAt, at,
  };
}

type DriftSlot = { serviceId: string; environmentId: string; kind: DriftKind };

/** A map keyed by service, environment and kind (driftKeyOf) that builds no key string per lookup. */
class DriftSlots<V> {
  private readonly byService = new Map<string, Map<string, Map<DriftKind, V>>>();

  get(d: DriftSlot): V | undefined {
    return this.byService.get(d.serviceId)?.get(d.environmentId)?.get(d.kind);
  }

  set(d: DriftSlot, value: V): void {
    let byEnv = this.byService.get(d.serviceId);
    if (byEnv === undefined) this.byService.set(d.serviceId, (byEnv = new Map()));
    let byKind = byEnv.get(d.environmentId);
    if (byKind === undefined) byEnv.set(d.environmentId, (byKind = new Map()));
    byKind.set(d.kind, value);
  }
}

function groupAcks(acks: readonly AckRecord[]): Map<string, AckRecord[]> {
  const out = new Map<string, AckRecord[]>();
  for (const ack of acks) {
    const list = out.get(ack.serviceId);
    if (list === undefined) out.set(ack.serviceId, [ack]);
    else list.push(ack);
  }
  return out;
}
