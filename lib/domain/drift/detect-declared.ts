// `declared` drift: in an environment with both Compose-in-Git rows and
// runtime rows, what runs differs from what Git declares. Declared rows have
// no digest, so a declared moving tag stays unresolved and proves nothing.
import { isMovingTag } from "@/lib/domain/versions";
import type { DetectContext } from "./detect-context";
import { maxDate } from "./runs";
import type { CurrentRun, Difference } from "./types";

export function detectDeclaredDrift(ctx: DetectContext): Difference[] {
  const out: Difference[] = [];
  for (const [serviceId, byEnv] of ctx.runs) {
    for (const env of byEnv.values()) {
      if (env.declared.length === 0 || env.runtime.length === 0) continue;
      const mismatched = env.runtime
        .filter((run) => !env.declared.some((decl) => isSameAsDeclared(run, decl)))
        .sort((a, b) => a.since.getTime() - b.since.getTime());
      const first = mismatched[0];
      if (first === undefined) continue;
      const declared = env.declared.reduce((a, b) => (b.since > a.since ? b : a));
      const targets = new Set(mismatched.map((run) => run.targetId));
      out.push({
        serviceId,
        environmentId: env.environmentId,
        kind: "declared",
        targetId: targets.size === 1 ? first.targetId : null,
        running: first.version ?? first.tag,
        expected: declared.version ?? declared.tag,
        since: maxDate(declared.since, first.since),
      });
    }
  }
  return out;
}

/**
 * Same tag, or same exact version when both are known. When a side's version
 * is unknown because its tag moves, the two cannot be told apart: no drift.
 */
export function isSameAsDeclared(run: Pick<CurrentRun, "tag" | "version">, declared: Pick<CurrentRun, "tag" | "version">): boolean {
  if (run.tag === declared.tag) return true;
  if (run.version !== null && declared.version !== null) return run.version === declared.version;
  const isUnknown = (side: Pick<CurrentRun, "tag" | "version">) => side.version === null && isMovingTag(side.tag);
  return isUnknown(run) || isUnknown(declared);
}
