// The check tick's log: a failing registry host is one warning per host per
// hour (whatever number of repositories fail on it), never a line per repository;
// so are moving tags held back by a host's pull quota (a 429, or no pull to spare).
import type { HostWarnings } from "@/lib/domain/upstream";
import type { CheckOutcome } from "@/lib/services/upstream/check-repository";
import type { LabelRefusal } from "@/lib/services/upstream/read-source-labels";

/** The warning lines to log now for these outcomes; hosts that answered again may warn at once next time. */
export function checkWarningLines(outcomes: readonly CheckOutcome[], warnings: HostWarnings, now: Date, labelRefusals: readonly LabelRefusal[] = []): string[] {
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
  const waiting = new Map<string, { name: string; digests: number; repositories: number; until: Date; refused: boolean }>();
  for (const o of outcomes) {
    // Lookups held back by this check; those still waiting from an earlier one were warned of then.
    if (o.status !== "ok" || !o.quotaWait?.fresh) continue;
    const w = o.quotaWait;
    const entry = waiting.get(w.host);
    if (!entry) waiting.set(w.host, { name: w.name, digests: w.digests, repositories: 1, until: w.until, refused: w.refused });
    else Object.assign(entry, { digests: entry.digests + w.digests, repositories: entry.repositories + 1, until: w.until < entry.until ? w.until : entry.until, refused: entry.refused || w.refused });
  }
  // A label read answered with 429 is the same news: one line per host, with the lookups if any.
  for (const r of labelRefusals) {
    const entry = waiting.get(r.host);
    if (!entry) waiting.set(r.host, { name: r.name, digests: 0, repositories: 0, until: r.until, refused: true });
    else Object.assign(entry, { refused: true, until: r.until < entry.until ? r.until : entry.until });
  }
  for (const [host, w] of waiting) {
    if (!warnings.shouldWarn(`quota:${host}`, now)) continue;
    if (w.digests === 0) {
      lines.push(`${w.name} pull quota: ${host} answered 429 Too Many Requests to a source-label read; pulls wait until ${w.until.toISOString()}.`);
      continue;
    }
    const why = w.refused ? `${host} answered 429 Too Many Requests` : `no pull to spare in the pull budget (the reserve is kept for your own pulls)`;
    lines.push(
      `${w.name} pull quota: ${w.digests} moving-tag ${w.digests === 1 ? "lookup" : "lookups"} in ${w.repositories} ${w.repositories === 1 ? "repository" : "repositories"} held back, ${why}; tried again from ${w.until.toISOString()}. Signing in (DRIFTWATCH_DOCKERHUB_USERNAME/TOKEN) or a mirror (DRIFTWATCH_DOCKERHUB_MIRROR) raises the quota.`,
    );
  }
  return lines;
}
