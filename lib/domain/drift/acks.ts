// Acknowledgements:
// `release` quiets release-driven drift (upstream, eol), `drift` quiets every
// kind; optionally in one environment; until a version ships or a time passes.
import type { DriftKind } from "@/lib/domain/policy";
import { compareTags } from "@/lib/domain/versions";
import type { RunningVersions } from "./runs";
import type { AckRecord } from "./types";

const RELEASE_KINDS: ReadonlySet<DriftKind> = new Set(["upstream", "eol"]);

export type AckScopeInput = { now: Date; runningVersionsInScope: readonly string[] };

/** Whether a version at or above `untilVersion` runs (not comparable like with like: does not count). */
export function hasShippedUntilVersion(ack: Pick<AckRecord, "untilVersion">, runningVersions: readonly string[]): boolean {
  const until = ack.untilVersion;
  if (until === null) return false;
  return runningVersions.some((v) => v === until || (compareTags(v, until) ?? -1) >= 0);
}

export function isAckActive(ack: AckRecord, { now, runningVersionsInScope }: AckScopeInput): boolean {
  if (ack.liftedAt !== null && ack.liftedAt <= now) return false;
  if (ack.expiresAt !== null && ack.expiresAt <= now) return false;
  return !hasShippedUntilVersion(ack, runningVersionsInScope);
}

export function ackMatches(
  ack: Pick<AckRecord, "serviceId" | "environmentId" | "kind">,
  drift: { serviceId: string; environmentId: string; kind: DriftKind },
): boolean {
  if (ack.serviceId !== drift.serviceId) return false;
  if (ack.environmentId !== null && ack.environmentId !== drift.environmentId) return false;
  return ack.kind === "drift" || RELEASE_KINDS.has(drift.kind);
}

/** Versions that run in an acknowledgement's scope: its environment, or every environment of the service. */
export function listVersionsInAckScope(ack: Pick<AckRecord, "serviceId" | "environmentId">, running: RunningVersions): string[] {
  const byEnv = running.get(ack.serviceId);
  if (byEnv === undefined) return [];
  if (ack.environmentId !== null) return [...(byEnv.get(ack.environmentId) ?? [])];
  return [...byEnv.values()].flat();
}

/** The next instant an acknowledgement of these expires, after `now` (when silencing changes by the clock alone), or null. */
export function nextAckExpiry(acks: readonly Pick<AckRecord, "expiresAt">[], now: Date): Date | null {
  let next: Date | null = null;
  for (const { expiresAt } of acks) if (expiresAt !== null && expiresAt > now && (next === null || expiresAt < next)) next = expiresAt;
  return next;
}

export type SilenceInput = { acks: readonly AckRecord[]; runningVersions: RunningVersions; now: Date };

/** The first active acknowledgement that silences this drift, or null. */
export function findSilencingAck(
  drift: { serviceId: string; environmentId: string; kind: DriftKind },
  { acks, runningVersions, now }: SilenceInput,
): AckRecord | null {
  for (const ack of acks) {
    if (!ackMatches(ack, drift)) continue;
    if (isAckActive(ack, { now, runningVersionsInScope: listVersionsInAckScope(ack, runningVersions) })) return ack;
  }
  return null;
}

/** The `silenced` flag of a drift in the API. */
export function isDriftSilenced(drift: { serviceId: string; environmentId: string; kind: DriftKind }, input: SilenceInput): boolean {
  return findSilencingAck(drift, input) !== null;
}

/**
 * Acknowledgements to mark lifted now because a version at or above their
 * `untilVersion` runs in their scope. Expired ones are left as they are.
 */
export function ackLiftedNow({ acks, runningVersions, now }: SilenceInput): { id: string; liftedAt: Date }[] {
  const out: { id: string; liftedAt: Date }[] = [];
  for (const ack of acks) {
    if (ack.liftedAt !== null || ack.untilVersion === null) continue;
    if (ack.expiresAt !== null && ack.expiresAt <= now) continue;
    if (hasShippedUntilVersion(ack, listVersionsInAckScope(ack, runningVersions))) out.push({ id: ack.id, liftedAt: now });
  }
  return out;
}
