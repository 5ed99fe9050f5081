// Builders for the drift and insights tests: a fixed clock and short row makers.
import { DEFAULT_POLICY, type EffectivePolicy } from "@/lib/domain/policy";
import type { CurrentRun, EnvironmentInfo, HistoryRun, ServiceInput } from "./types";

export const NOW = new Date("2026-03-01T12:00:00Z");
const DAY = 86_400_000;

/** A time relative to NOW: `ago(8)` is eight days ago, `ago(0, 20)` twenty minutes ago. */
export function ago(days: number, minutes = 0): Date {
  return new Date(NOW.getTime() - days * DAY - minutes * 60_000);
}

export const ENVS: EnvironmentInfo[] = [
  { id: "dev", name: "dev", position: 1, production: false },
  { id: "staging", name: "staging", position: 2, production: false },
  { id: "prod", name: "production", position: 3, production: true },
];

export function makeService(over: Partial<Omit<ServiceInput, "policy">> & { policy?: Partial<EffectivePolicy> } = {}): ServiceInput {
  return {
    id: "svc",
    name: "web",
    team: "core",
    application: null,
    upstream: null,
    eol: new Map(),
    ...over,
    policy: { ...DEFAULT_POLICY, ...over.policy },
  };
}

/** An open row: `run("prod", "t1", "1.2.0", ago(3))`; a tag that is not a version passes `version: null`. */
export function run(
  environmentId: string,
  targetId: string,
  version: string | null,
  since: Date,
  over: Partial<CurrentRun> = {},
): CurrentRun {
  return {
    serviceId: "svc",
    environmentId,
    targetId,
    targetName: targetId,
    tag: version ?? "latest",
    version,
    digest: null,
    since,
    declared: false,
    ...over,
  };
}

/** A history row from `since` to `to` (null: still running). */
export function hist(
  environmentId: string,
  targetId: string,
  version: string | null,
  since: Date,
  to: Date | null,
  over: Partial<CurrentRun> = {},
): HistoryRun {
  return { ...run(environmentId, targetId, version, since, over), to };
}

/** The open rows of a history, as the caller reads `current`. */
export function openRows(history: readonly HistoryRun[]): CurrentRun[] {
  return history.filter((h) => h.to === null).map(({ to: _to, ...rest }) => rest);
}
