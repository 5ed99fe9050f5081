// The check tick's log: a failing registry host is one warning per host per
// hour (whatever number of repositories fail on it), never a line per repository.
import type { HostWarnings } from "@/lib/domain/upstream";
import type { CheckOutcome } from "@/lib/services/upstream/check-repository";

/** The warning lines to log now for these outcomes; hosts that answered again may warn at once next time. */
export function checkWarningLines(outcomes: readonly CheckOutcome[], warnings: HostWarnings, now: Date): string[] {
  const failing = new Map<string, { error: string; repositories: number }>();
  for (const o of outcomes) {
    if (o.status !== "failed") continue;
    const entry = failing.get(o.host);
    if (entry) entry.repositories++;
    else failing.set(o.host, { error: o.error, repositories: 1 });
  }
  for (const o of outcomes) if (o.status === "ok" && !failing.has(o.host)) warnings.recovered(o.host);
  const lines: string[] = [];
  for (const [host, { error, repositories }] of failing) {
    if (!warnings.shouldWarn(host || "(check)", now)) continue;
    lines.push(`upstream checks failing on ${host || "(no host)"}: ${repositories} ${repositories === 1 ? "repository" : "repositories"}, ${error}`);
  }
  return lines;
}
