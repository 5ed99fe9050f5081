// Every repository a service runs (or names as its override) gets a row to be
// checked: by the server for well-known public registries and configured
// hosts, by the workspace's agents otherwise. A new one is due at once.
import { isServerQueried } from "@/lib/adapters/registries/well-known";
import type { Db, Prisma } from "@/lib/db/client";
import { createUpstreamRepositories, upstreamRepositoriesInsertSql, type NewUpstreamRepository } from "@/lib/db/queries/upstream/create-upstream-repositories";
import { isChartKey, parseChartKey } from "@/lib/domain/charts";
import { parseImageRef } from "@/lib/domain/image-ref";

export async function ensureUpstreamRepositories(db: Db, workspaceId: string, keys: Iterable<string>, serverRegistries: readonly string[], now: Date): Promise<void> {
  const insert = upstreamRepositoriesInsert(workspaceId, keys, serverRegistries, now);
  // Most reports name repositories already registered: one statement, no per-row query building.
  if (insert) {
    await createUpstreamRepositories(db, insert.sql);
    insert.registered();
  }
}

/**
 * Repositories (key and scope) this process has registered or found registered, and when. Rows are never
 * deleted while servers run (a restore needs them stopped), so report intake need not insert these again
 * for a while; forgetting them after REMEMBER_MS bounds what a database that lost recent writes (failover
 * to a lagging standby) can miss.
 */
const registeredRepositories = new Map<string, number>();
const REMEMBER_MS = 10 * 60_000;

/**
 * The INSERT … ON CONFLICT DO NOTHING that registers `keys` (null when there is nothing to insert), to run
 * alone or as one part of a larger statement (report intake), and `registered`, to call once it committed.
 * `onlyIf`: a SQL condition that must hold for anything to be inserted. `unknownOnly`: leave out what
 * this process has seen registered. Rows go in key order, so two statements registering overlapping sets
 * never wait on each other in a cycle.
 */
export function upstreamRepositoriesInsert(
  workspaceId: string, keys: Iterable<string>, serverRegistries: readonly string[], now: Date,
  opts: { onlyIf?: Prisma.Sql; unknownOnly?: boolean } = {},
): { sql: Prisma.Sql; registered: () => void } | null {
  const rows: NewUpstreamRepository[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    const ref = parsedKey(key);
    if (!ref || seen.has(ref.key)) continue;
    seen.add(ref.key);
    // Charts are checked by the server only: one on a host it may not call shows as failed, never agent-checked.
    const byServer = ref.chart || isServerQueried(ref.host, serverRegistries);
    // Shared rows (owner NULL, scope "") are the server's; an agent-checked repository belongs to its workspace.
    const owner = byServer ? null : workspaceId;
    const scope = owner ?? "";
    if (opts.unknownOnly) {
      const at = registeredRepositories.get(`${ref.key}\u0000${scope}`);
      if (at !== undefined && Math.abs(now.getTime() - at) < REMEMBER_MS) continue;
    }
    rows.push({ key: ref.key, host: ref.host, path: ref.path, ownerWorkspaceId: owner, scope, checkedBy: byServer ? ("server" as const) : ("agent" as const), dueAt: now });
  }
  if (rows.length === 0) return null;
  rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0));
  const registered = () => {
    if (registeredRepositories.size + rows.length > 100_000) registeredRepositories.clear();
    for (const r of rows) registeredRepositories.set(`${r.key}\u0000${r.scope}`, now.getTime());
  };
  return { sql: upstreamRepositoriesInsertSql(rows, opts.onlyIf), registered };
}

// Reports name the same repositories every minute: parse each once.
type ParsedKey = Readonly<{ key: string; host: string; path: string; chart: boolean }>;
const parsed = new Map<string, ParsedKey | null>();
function parsedKey(key: string): ParsedKey | null {
  let ref = parsed.get(key);
  if (ref !== undefined) return ref;
  const chart = parseChartKey(key);
  // A chart without a known repository (`chart:<name>`) has nothing to check.
  const full = chart || isChartKey(key) ? null : parseImageRef(key);
  ref = chart ? { key, host: chart.host, path: chart.kind === "oci" ? chart.path : `${chart.url}#${chart.chart}`, chart: true }
    : full ? { key: full.key, host: full.host, path: full.path, chart: false } : null;
  if (parsed.size >= 20_000) parsed.clear();
  parsed.set(key, ref);
  return ref;
}
