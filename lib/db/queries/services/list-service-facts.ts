// Read model for services: the service row, the repository its main
// containers run now, and that repository's check state. One query each for
// any number of services (no N+1).
import type { Db } from "@/lib/db/client";

export type ServiceRow = {
  id: string;
  name: string;
  team: string | null;
  application: string | null;
  repository: string | null;
  policy: unknown;
  createdAt: Date;
};

export type ServiceFacts = ServiceRow & {
  runningRepository: string | null;
  upstream: { checkedBy: "server" | "agent"; checkedAt: Date | null; lastError: string | null; sourceLabel: string | null } | null;
};

export async function loadServiceFacts(db: Db, workspaceId: string, names?: string[]): Promise<ServiceFacts[]> {
  const services = await db.service.findMany({
    where: { workspaceId, ...(names ? { name: { in: names } } : {}) },
    orderBy: { name: "asc" },
    select: { id: true, name: true, team: true, application: true, repository: true, policy: true, createdAt: true },
  });
  if (services.length === 0) return [];
  const ids = services.map((s) => s.id);
  // The repository each service's main containers run now (newest first).
  const running = await db.$queryRaw<{ service_id: string; repository: string }[]>`
    SELECT DISTINCT ON (service_id) service_id::text, repository
    FROM runs
    WHERE workspace_id = ${workspaceId}::uuid AND service_id = ANY(${ids}::uuid[]) AND is_main AND "to" IS NULL AND NOT declared
    ORDER BY service_id, "from" DESC`;
  const declared = await db.$queryRaw<{ service_id: string; repository: string }[]>`
    SELECT DISTINCT ON (service_id) service_id::text, repository
    FROM runs
    WHERE workspace_id = ${workspaceId}::uuid AND service_id = ANY(${ids}::uuid[]) AND "to" IS NULL AND declared
    ORDER BY service_id, "from" DESC`;
  const runningBy = new Map(declared.map((r) => [r.service_id, r.repository]));
  for (const r of running) runningBy.set(r.service_id, r.repository);
  const keys = [...new Set(services.map((s) => s.repository ?? runningBy.get(s.id)).filter((k): k is string => !!k))];
  const upstream = keys.length
    ? await db.upstreamRepository.findMany({
        where: { key: { in: keys }, OR: [{ ownerWorkspaceId: null }, { ownerWorkspaceId: workspaceId }] },
        select: { key: true, checkedBy: true, checkedAt: true, lastError: true, sourceLabel: true, ownerWorkspaceId: true },
      })
    : [];
  // A workspace's own (private) row wins over the shared one.
  const upstreamBy = new Map<string, (typeof upstream)[number]>();
  for (const u of upstream) if (!upstreamBy.has(u.key) || u.ownerWorkspaceId) upstreamBy.set(u.key, u);
  return services.map((s) => {
    const runningRepository = runningBy.get(s.id) ?? null;
    const u = upstreamBy.get(s.repository ?? runningRepository ?? "");
    return {
      ...s,
      runningRepository,
      upstream: u ? { checkedBy: u.checkedBy, checkedAt: u.checkedAt, lastError: u.lastError, sourceLabel: u.sourceLabel } : null,
    };
  });
}
