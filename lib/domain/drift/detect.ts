// Drift detection: every difference that holds now,
// dated from history. The lifecycle (lifecycle.ts) turns them into records.
import { detectDeclaredDrift } from "./detect-declared";
import { detectEnvDrift } from "./detect-env";
import { detectEolDrift } from "./detect-eol";
import { detectInconsistentDrift } from "./detect-inconsistent";
import { detectUpstreamDrift } from "./detect-upstream";
import type { DetectContext } from "./detect-context";
import { createJumpFinder, createVersionComparator, groupCurrentRuns } from "./runs";
import type { CurrentRun, Difference, EnvironmentInfo, HistoryRun, ServiceInput } from "./types";

export type DetectInput = {
  environments: readonly EnvironmentInfo[];
  services: readonly ServiceInput[];
  /** Open history rows. Rows of services not in `services` are ignored. */
  current: readonly CurrentRun[];
  /** History of the same services (closed and open rows); dates env drift. May be empty. */
  history: readonly HistoryRun[];
  now: Date;
};

export function detectDifferences(input: DetectInput): Difference[] {
  const services = new Map(input.services.map((s) => [s.id, s] as const));
  // Grouped first, then rows of services not given dropped: one lookup per service, not per row.
  const runs = groupCurrentRuns(input.current);
  for (const serviceId of runs.keys()) if (!services.has(serviceId)) runs.delete(serviceId);
  const ctx: DetectContext = {
    environments: [...input.environments].sort((a, b) => a.position - b.position),
    services,
    runs,
    history: input.history,
    compare: createVersionComparator(),
    jump: createJumpFinder(),
    now: input.now,
  };
  return [
    ...detectEnvDrift(ctx),
    ...detectUpstreamDrift(ctx),
    ...detectInconsistentDrift(ctx),
    ...detectDeclaredDrift(ctx),
    ...detectEolDrift(ctx),
  ];
}
