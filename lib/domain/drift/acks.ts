// Acknowledgements: what a `release` or `drift` acknowledgement silences.
// `release` quiets the drifts a release move ends (upstream, eol, and env,
// whose move is to the previous environment's version): with until_version,
// those whose move does not go beyond it, until a version at or above it runs;
// with skip_version, while no release newer than it is out that the policy
// alerts on. `drift` quiets every kind. Optionally in one environment, and
// until a time passes.
import type { DriftKind } from "@/lib/domain/policy";
import { parseTag, type ParsedTag } from "@/lib/domain/versions";
import type { RunningVersions } from "./runs";
import type { AckRecord } from "./types";

const RELEASE_KINDS: ReadonlySet<DriftKind> = new Set(["upstream", "eol", "env"]);

/** The drift an acknowledgement is tested against; `expected` is its move (null: not known, as for eol). */
export type SilenceDrift = { serviceId: string; environmentId: string; kind: DriftKind; expected?: string | null };

/** serviceId → environmentId → the newest release the policy alerts on there (an upstream drift's `expected`). */
export type UpstreamTargets = ReadonlyMap<string, ReadonlyMap<string, string>>;

export type AckScopeInput = { now: Date; runningVersionsInScope: readonly string[] };

/**
 * `version` against an acknowledgement's version: negative below, 0 within
 * (`1.28.3` is within `1.28`), positive above; null when not the same kind of
 * version (another prefix, or another flavour than the one the acknowledgement
 * names: not comparable like with like). A plain version, as a user types it,
 * covers every flavour of its line (`3.3.0` covers `3.2.0-alpine`).
 */
export function compareToAckVersion(version: string, ackVersion: string): number | null {
  if (version === ackVersion) return 0;
  const v = parseTag(version);
  const a = parseTag(ackVersion);
  if (!isComparable(v, a)) return null;
  for (let i = 0; i < a.numbers.length; i++) {
    const d = (v.numbers[i] ?? 0) - (a.numbers[i] as number);
    if (d !== 0) return Math.sign(d);
  }
  if (v.numbers.length > a.numbers.length) return a.prerelease === null ? 0 : 1;
  if (v.prerelease === a.prerelease) return 0;
  if (v.prerelease === null) return 1;
  if (a.prerelease === null) return -1;
  return v.prerelease < a.prerelease ? -1 : 1;
}

const plain = (prefix: string) => (prefix === "v" ? "" : prefix);

function isComparable(v: ParsedTag, a: ParsedTag): boolean {
  const hasVersion = (p: ParsedTag) => p.kind === "version" || p.kind === "date";
  return hasVersion(v) && v.kind === a.kind && plain(v.prefix) === plain(a.prefix) && (a.flavour === "" || v.flavour === a.flavour);
}

/** Whether a version at or above `untilVersion` runs (not comparable like with like: does not count). */
export function hasShippedUntilVersion(ack: Pick<AckRecord, "untilVersion">, runningVersions: readonly string[]): boolean {
  const until = ack.untilVersion;
  if (until === null) return false;
  return runningVersions.some((v) => (compareToAckVersion(v, until) ?? -1) >= 0);
}

/** Not lifted, not expired, and no version at or above `untilVersion` runs in its scope. */
export function isAckActive(ack: AckRecord, { now, runningVersionsInScope }: AckScopeInput): boolean {
  if (ack.liftedAt !== null && ack.liftedAt <= now) return false;
  if (ack.expiresAt !== null && ack.expiresAt <= now) return false;
  return !hasShippedUntilVersion(ack, runningVersionsInScope);
}

/** Same service, the acknowledgement's environment (if any) and a kind it covers; versions are not looked at. */
export function ackMatches(ack: Pick<AckRecord, "serviceId" | "environmentId" | "kind">, drift: SilenceDrift): boolean {
  if (ack.serviceId !== drift.serviceId) return false;
  if (ack.environmentId !== null && ack.environmentId !== drift.environmentId) return false;
  return ack.kind === "drift" || RELEASE_KINDS.has(drift.kind);
}

/**
 * Whether the drift's move is one the acknowledgement covers. until_version:
 * a move to a version not beyond it (an unknown move, as eol's, is covered).
 * skip_version: no release newer than it that the policy alerts on is out
 * where the drift is.
 */
export function ackCoversMove(
  ack: Pick<AckRecord, "kind" | "untilVersion"> & { skipVersion?: string | null },
  drift: SilenceDrift,
  upstreamTargets: UpstreamTargets | undefined,
): boolean {
  if (ack.kind === "drift") return true;
  const skip = ack.skipVersion ?? null;
  if (skip !== null) {
    const target = upstreamTargets?.get(drift.serviceId)?.get(drift.environmentId) ?? (drift.kind === "upstream" ? (drift.expected ?? null) : null);
    return target === null || (compareToAckVersion(target, skip) ?? 1) <= 0;
  }
  const until = ack.untilVersion;
  const move = drift.expected ?? null;
  if (until === null || move === null) return true;
  return (compareToAckVersion(move, until) ?? 1) <= 0;
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

export type SilenceInput = {
  acks: readonly AckRecord[];
  runningVersions: RunningVersions;
  now: Date;
  /** For skip_version; without it, only an upstream drift's own `expected` is known. */
  upstreamTargets?: UpstreamTargets;
};

/** The first active acknowledgement that silences this drift, or null. */
export function findSilencingAck(drift: SilenceDrift, { acks, runningVersions, now, upstreamTargets }: SilenceInput): AckRecord | null {
  for (const ack of acks) {
    if (!ackMatches(ack, drift) || !ackCoversMove(ack, drift, upstreamTargets)) continue;
    if (isAckActive(ack, { now, runningVersionsInScope: listVersionsInAckScope(ack, runningVersions) })) return ack;
  }
  return null;
}

/** The `silenced` flag of a drift in the API. */
export function isDriftSilenced(drift: SilenceDrift, input: SilenceInput): boolean {
  return findSilencingAck(drift, input) !== null;
}

/** The upstream targets of live upstream drift (or differences), for skip_version. */
export function indexUpstreamTargets(
  drifts: Iterable<{ serviceId: string; environmentId: string; kind: DriftKind; expected: string | null; state?: string }>,
): UpstreamTargets {
  const out = new Map<string, Map<string, string>>();
  for (const d of drifts) {
    if (d.kind !== "upstream" || d.expected === null || d.state === "resolved") continue;
    let byEnv = out.get(d.serviceId);
    if (byEnv === undefined) out.set(d.serviceId, (byEnv = new Map()));
    byEnv.set(d.environmentId, d.expected);
  }
  return out;
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
