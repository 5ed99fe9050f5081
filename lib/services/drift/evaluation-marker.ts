// Each scheduler evaluates every workspace each minute, and several processes
// run a scheduler. Most minutes nothing an evaluation reads has changed, and
// the clock changes nothing either: the evaluation would find what the last
// one left. Each evaluation therefore leaves a marker (drift_evaluations): the
// transaction snapshot it read from, its own transaction, the rules it ran and
// the next instant the clock changes its outcome (nextClockChange). The tick
// skips a workspace while
// - no transaction that wrote what drift reads finished after that snapshot,
//   but the evaluation's own (insight_writes: the triggers that note what
//   insights show note all of it; `drift` is false for a transaction that
//   wrote only what drift does not read, such as a repository's last check);
// - that instant has not come;
// - the rules are the same (DRIFT_RULES, end-of-life data on or off);
// - the marker is under MARKER_MAX_AGE_MS old, so what no trigger notes (the
//   end-of-life product list, a clock set back) is made good within minutes.
// Report intake's own evaluations never skip: they follow a change.
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { listUnchangedWorkspaces as listUnchanged } from "@/lib/db/queries/drifts/list-unchanged-workspaces";
import { INSIGHT_WRITES_KEPT_MS } from "../cache/insights-cache";

/** Bump when detection or lifecycle rules change what an evaluation of the same data finds. */
export const DRIFT_RULES = "1";

/** Half the time insight_writes are kept, as for cached insights: the notes reach back past it. */
export const MARKER_MAX_AGE_MS = INSIGHT_WRITES_KEPT_MS / 2;

export function rulesOf(config: Pick<Config, "eolEnabled">): string {
  return `${DRIFT_RULES};eol=${config.eolEnabled ? 1 : 0}`;
}

export { readEvaluationSnapshot } from "@/lib/db/queries/drifts/get-evaluation-snapshot";
export { writeEvaluationMarker } from "@/lib/db/queries/drifts/write-evaluation-marker";

/** Of `workspaceIds`, those an evaluation at `now` under `rules` would leave as they are (see above). One statement. */
export async function listUnchangedWorkspaces(db: Db, workspaceIds: readonly string[], opts: { rules: string; now: Date }): Promise<Set<string>> {
  return listUnchanged(db, workspaceIds, { ...opts, oldest: new Date(opts.now.getTime() - MARKER_MAX_AGE_MS) });
}
