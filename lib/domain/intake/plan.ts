// The rules of report intake, given the target as read: history rows open at the runtime's own start time
// (`since`); a workload whose image changed closes at the new one's `since`; one that is gone closes at the
// report's `observed_at`. Stale reports are ignored and repeats change nothing.
import type { AgentReport, Workload } from "../agent-report";
import { AppError } from "../errors";

/** `from` in epoch milliseconds: read for every open row of every report, and only compared. */
export type OpenRun = { id: string; serviceName: string; container: string; image: string; digest: string | null; from: number };

/** A closed run, the last of its service and container, that a workload may resume. */
export type ClosedRun = Omit<OpenRun, "from"> & { from: Date };

/** The target as read before applying a report. */
export type TargetSnapshot = {
  environmentId: string;
  /** The environment the report names. */
  reportEnvironmentId: string;
  kind: string;
  lastObservedAt: Date | null;
  lastReportHash: string | null;
  open: OpenRun[];
};

/**
 * What to do with a report: "stale" (older than the last one: ignore), "reread" (the target row already
 * holds this report, applied after it was read: read again), or the workloads matched against open rows.
 * Throws a conflict when the target exists as another kind.
 */
export type ReportPlan = "stale" | "reread" | ReportMatch;

export type ReportMatch = {
  kind: "match";
  open: readonly OpenRun[];
  observedAt: Date;
  /** Workloads without an open row to continue: opened (unless they resume a closed one). */
  fresh: Workload[];
  matched: Set<string>;
  /** Workloads that started before the last accepted report and have no open row of their container: they may resume one. */
  candidates: Workload[];
  runsOf: (w: Workload) => readonly OpenRun[];
};

export type ReportChange = { closeAt: Map<string, Date>; reopen: string[]; fresh: Workload[] };

export function planReport(target: TargetSnapshot, report: Pick<AgentReport, "target" | "workloads">, observedAt: Date, fingerprint: string): ReportPlan {
  if (target.kind !== report.target.kind) {
    throw new AppError("conflict", `Target ${report.target.name} is a ${target.kind} target; report ${report.target.kind} under another name.`);
  }
  if (target.lastObservedAt && observedAt < target.lastObservedAt) return "stale";
  // A target that moved to another environment starts its history there afresh.
  const movedEnvironment = target.environmentId !== target.reportEnvironmentId;
  if (target.lastReportHash === fingerprint && !movedEnvironment) return "reread";
  const open = target.open;
  const matched = new Set<string>();
  const fresh: Workload[] = [];
  // Open rows by service and container, in their order: a report's workloads are matched in one pass, not each against every row.
  const byContainer = new Map<string, OpenRun[]>();
  for (const r of open) {
    const key = `${r.serviceName}\u0000${r.container}`;
    const list = byContainer.get(key);
    if (list) list.push(r);
    else byContainer.set(key, [r]);
  }
  const runsOf = (w: Workload): readonly OpenRun[] => byContainer.get(`${w.service}\u0000${w.container}`) ?? [];
  for (const w of report.workloads) {
    const run = movedEnvironment ? undefined : runsOf(w).find((r) => !matched.has(r.id) && sameWorkload(r, w));
    if (run) matched.add(run.id);
    else fresh.push(w);
  }
  // A workload missing from one report (a partial listing by the runtime) and back, unchanged, in a newer
  // one never stopped. Only one that started before the last accepted report can be one.
  const last = target.lastObservedAt;
  const candidates = movedEnvironment || !last ? [] : fresh.filter((w) => Date.parse(w.since) < last.getTime() && runsOf(w).length === 0);
  return { kind: "match", open, observedAt, fresh, matched, candidates, runsOf };
}

/**
 * The rows to close, reopen and open. `lastClosed`: the last closed run of each candidate's container;
 * one with the same workload and start time is reopened instead of stored twice.
 */
export function reportChange(match: ReportMatch, lastClosed: readonly ClosedRun[]): ReportChange {
  const { open, matched, runsOf } = match;
  const fresh = [...match.fresh];
  const reopen: string[] = [];
  for (const w of match.candidates) {
    const run = lastClosed.find((r) => sameWorkload(r, w) && r.from.getTime() === Date.parse(w.since));
    if (!run) continue;
    reopen.push(run.id);
    fresh.splice(fresh.indexOf(w), 1);
  }
  const closeAt = new Map<string, Date>();
  for (const w of fresh) {
    // The workload's previous image, if it ran here, ends when the new one started.
    const previous = runsOf(w).find((r) => !matched.has(r.id) && !closeAt.has(r.id));
    if (previous) closeAt.set(previous.id, new Date(Math.max(Date.parse(w.since), previous.from)));
  }
  for (const r of open) if (!matched.has(r.id) && !closeAt.has(r.id)) closeAt.set(r.id, new Date(Math.max(match.observedAt.getTime(), r.from)));
  return { closeAt, reopen, fresh };
}

function sameWorkload(run: Omit<OpenRun, "from">, w: Workload): boolean {
  return run.serviceName === w.service && run.container === w.container && run.image === w.image && run.digest === w.digest;
}
