// Upstream tags for repositories, as a workspace sees them: the shared
// (server-checked) repository and the workspace's own agent-checked one.
import type { Db } from "@/lib/db/client";

export type UpstreamRepoFacts = { key: string; tags: string[]; firstSeen: Map<string, Date>; checkedAt: Date | null; checkedBy: "server" | "agent"; lastError: string | null };

export async function loadUpstream(db: Db, workspaceId: string, keys: string[]): Promise<Map<string, UpstreamRepoFacts>> {
  if (keys.length === 0) return new Map();
  const repos = await db.upstreamRepository.findMany({
    where: { key: { in: keys }, OR: [{ ownerWorkspaceId: null }, { ownerWorkspaceId: workspaceId }] },
    select: { id: true, key: true, ownerWorkspaceId: true, checkedAt: true, checkedBy: true, lastError: true },
  });
  const chosen = new Map<string, (typeof repos)[number]>();
  for (const r of repos) if (!chosen.has(r.key) || r.ownerWorkspaceId) chosen.set(r.key, r);
  const ids = [...chosen.values()].map((r) => r.id);
  const tags = ids.length ? await db.upstreamTag.findMany({ where: { repositoryId: { in: ids } }, select: { repositoryId: true, name: true, firstSeenAt: true } }) : [];
  const byRepo = new Map<string, { tags: string[]; firstSeen: Map<string, Date> }>();
  for (const t of tags) {
    let entry = byRepo.get(t.repositoryId);
    if (!entry) byRepo.set(t.repositoryId, (entry = { tags: [], firstSeen: new Map() }));
    entry.tags.push(t.name);
    entry.firstSeen.set(t.name, t.firstSeenAt);
  }
  const out = new Map<string, UpstreamRepoFacts>();
  for (const [key, r] of chosen) {
    const e = byRepo.get(r.id) ?? { tags: [], firstSeen: new Map() };
    out.set(key, { key, tags: e.tags, firstSeen: e.firstSeen, checkedAt: r.checkedAt, checkedBy: r.checkedBy, lastError: r.lastError });
  }
  return out;
}
