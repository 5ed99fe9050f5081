// The banner over the matrix and Updates: which registries cannot be reached,
// how many repositories each affects, and one reason.
import { UPSTREAM_STATES, type UpstreamState } from "./state";

export type RepositoryUpstream = { host: string; state: UpstreamState; error: string | null };

export type FailingRegistry = { host: string; repositories: number; reason: string | null };

/**
 * Failing and stale repositories by registry host, most affected first. The
 * reason is the one most of the host's repositories give (ties: the first seen).
 */
export function groupFailingRegistries(repositories: readonly RepositoryUpstream[]): FailingRegistry[] {
  const byHost = new Map<string, { repositories: number; reasons: Map<string, number> }>();
  for (const repo of repositories) {
    if (repo.state !== "failed" && repo.state !== "stale") continue;
    const host = repo.host.toLowerCase();
    let entry = byHost.get(host);
    if (entry === undefined) byHost.set(host, (entry = { repositories: 0, reasons: new Map() }));
    entry.repositories += 1;
    if (repo.error !== null) entry.reasons.set(repo.error, (entry.reasons.get(repo.error) ?? 0) + 1);
  }
  const out: FailingRegistry[] = [];
  for (const [host, { repositories, reasons }] of byHost) {
    let reason: string | null = null;
    let most = 0;
    for (const [text, n] of reasons) if (n > most) [reason, most] = [text, n];
    out.push({ host, repositories, reason });
  }
  return out.sort((a, b) => b.repositories - a.repositories || a.host.localeCompare(b.host));
}

/** Repositories per registry host and state, for the metrics endpoint; every state present per host. */
export function countUpstreamStates(repositories: readonly Pick<RepositoryUpstream, "host" | "state">[]): { host: string; state: UpstreamState; repositories: number }[] {
  const byHost = new Map<string, Record<UpstreamState, number>>();
  for (const repo of repositories) {
    const host = repo.host.toLowerCase();
    let counts = byHost.get(host);
    if (counts === undefined) byHost.set(host, (counts = { ok: 0, failed: 0, stale: 0, unchecked: 0 }));
    counts[repo.state] += 1;
  }
  return [...byHost.keys()].sort().flatMap((host) => {
    const counts = byHost.get(host) as Record<UpstreamState, number>;
    return UPSTREAM_STATES.map((state) => ({ host, state, repositories: counts[state] }));
  });
}
