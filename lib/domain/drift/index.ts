// Drift detection, the drift lifecycle and acknowledgements: pure rules.
export type {
  AckRecord, CurrentRun, Difference, DifferenceReason, DriftRecord, EnvironmentInfo, EolCycleInfo, HistoryRun,
  ServiceInput, UpstreamInfo,
} from "./types";
export { detectDifferences, type DetectInput } from "./detect";
export { isSameAsDeclared } from "./detect-declared";
export { findWaitingRelease, listHeldReleases, selectNewestOrNull } from "./detect-upstream";
export { nextClockChange, type ClockInput } from "./clock";
export {
  alertDelayMs, DEFAULT_ALERT_AFTER_MS, driftKeyOf, planLifecycle, type DriftEvent, type LifecyclePlan, type PlanInput,
} from "./lifecycle";
export {
  ackCoversMove, ackLiftedNow, ackMatches, compareToAckVersion, findSilencingAck, hasShippedUntilVersion, indexUpstreamTargets, isAckActive,
  isDriftSilenced, listVersionsInAckScope, nextAckExpiry,
  type AckScopeInput, type SilenceDrift, type SilenceInput, type UpstreamTargets,
} from "./acks";
export {
  createJumpFinder, createVersionComparator, findNewestVersion, findOldestInEnv, findOldestVersion, groupCurrentRuns, indexRunningVersions, listVersions,
  type EnvRuns, type JumpFinder, type RunningVersions, type RunsByService, type VersionComparator, type VersionSince,
} from "./runs";
