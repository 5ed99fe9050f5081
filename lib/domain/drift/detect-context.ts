// Shared, precomputed inputs of one detection run.
import type { JumpFinder, RunsByService, VersionComparator } from "./runs";
import type { EnvironmentInfo, HistoryRun, ServiceInput } from "./types";

export type DetectContext = {
  /** Pipeline order (position ascending). */
  environments: readonly EnvironmentInfo[];
  services: ReadonlyMap<string, ServiceInput>;
  runs: RunsByService;
  /** Closed and open rows; read only where a drift needs dating. */
  history: readonly HistoryRun[];
  compare: VersionComparator;
  jump: JumpFinder;
  now: Date;
};
