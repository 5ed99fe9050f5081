// One upstream check of one repository: list its tags; when the list is
// unchanged that is the whole cost (one request per tag page). When it
// changed, store it. Then resolve running digests of moving tags that have not
// been looked up (HEADs newest first; two manifest GETs at most for a platform
// digest), and read the image source label once a week.
import { createHash } from "node:crypto";
import { isPrivateRepositoryError } from "@/lib/adapters/registries/client";
import { resolveDigest } from "@/lib/adapters/registries/resolve";
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/domain/errors";
import { resolutionCandidates } from "@/lib/domain/running-version";
import { compareTags, parseTag } from "@/lib/domain/versions";
import type { UpstreamClients } from "./ports";
import { syncReleasesFor } from "./sync-releases";

export type CheckDeps = { db: Db; config: Config; clients: UpstreamClients; now: () => Date };

export type CheckOutcome =
  | { status: "skipped"; reason: "agent" | "missing" }
  | { status: "ok"; changed: boolean; tags: number; resolved: number; durationMs: number }
  | { status: "private" }
  | { status: "failed"; error: string; retryInMs: number };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const SOURCE_LABEL = "org.opencontainers.image.source";

export function tagsFingerprint(tags: readonly string[]): string {
  return createHash("sha256").update([...tags].sort().join("\n")).digest("hex");
}

/** Retry a failing repository after 1, 2, 4 … minutes, never later than the hourly check. */
export function retryDelayMs(failures: number): number {
  return Math.min(HOUR, 60_000 * 2 ** Math.max(0, failures - 1));
}

export async function checkRepository(deps: CheckDeps, repositoryId: string): Promise<CheckOutcome> {
  const { db, clients } = deps;
  const started = Date.now();
  const repo = await db.upstreamRepository.findUnique({ where: { id: repositoryId } });
  if (!repo) return { status: "skipped", reason: "missing" };
  if (repo.checkedBy === "agent") return { status: "skipped", reason: "agent" };
  const target = { host: repo.host, path: repo.path };
  const now = deps.now();

  let tags: string[];
  try {
    tags = await clients.registry.listTags(target);
    // An empty answer where tags were stored is a registry glitch, not every tag deleted: keep the list.
    if (tags.length === 0 && (await db.upstreamTag.count({ where: { repositoryId: repo.id } })) > 0) {
      throw new AppError("registry_unavailable", `${repo.key}: the registry listed no tags; the stored list is kept.`);
    }
  } catch (err) {
    if (isPrivateRepositoryError(err)) {
      await db.upstreamRepository.update({
        where: { id: repo.id },
        data: { checkedBy: "agent", checkedAt: now, lastError: "private repository: checked by the workspace's agents", leasedUntil: null, dueAt: new Date(now.getTime() + DAY) },
      });
      return { status: "private" };
    }
    const failures = repo.failures + 1;
    const retryInMs = err instanceof AppError && err.retryAfterSeconds ? Math.max(err.retryAfterSeconds * 1000, retryDelayMs(failures)) : retryDelayMs(failures);
    const error = err instanceof Error ? err.message : String(err);
    await db.upstreamRepository.update({
      where: { id: repo.id },
      data: { failures, lastError: error.slice(0, 1000), leasedUntil: null, dueAt: new Date(now.getTime() + retryInMs), lastDurationMs: Date.now() - started },
    });
    return { status: "failed", error, retryInMs };
  }

  const fingerprint = tagsFingerprint(tags);
  const changed = fingerprint !== repo.tagsFingerprint;
  if (changed) {
    await db.$transaction(
      async (tx) => {
        await tx.upstreamTag.deleteMany({ where: { repositoryId: repo.id, name: { notIn: tags } } });
        await tx.upstreamTag.createMany({ data: tags.map((name) => ({ repositoryId: repo.id, name, firstSeenAt: now })), skipDuplicates: true });
      },
      // Prisma's defaults (2 s to get a connection) fail checks on a busy machine, after the tags were
      // listed: the retry would list them again. Wait as long as report intake does.
      { maxWait: 15_000, timeout: 30_000 },
    );
  }

  const resolved = await resolveRunningDigests(deps, repo, tags);
  if (!repo.labelCheckedAt || now.getTime() - repo.labelCheckedAt.getTime() > WEEK) await refreshSourceLabel(deps, repo, tags);

  const label = (await db.upstreamRepository.findUnique({ where: { id: repo.id }, select: { sourceLabel: true } }))?.sourceLabel ?? null;
  await syncReleasesFor(deps, repo.key, label, { force: changed });

  // The fingerprint only when the tags changed: a write of it counts as new data for drift (evaluation-marker.ts).
  await db.upstreamRepository.update({
    where: { id: repo.id },
    data: {
      checkedAt: now, dueAt: new Date(now.getTime() + HOUR), ...(changed ? { tagsFingerprint: fingerprint } : {}), failures: 0, lastError: null, leasedUntil: null,
      lastDurationMs: Date.now() - started,
    },
  });
  return { status: "ok", changed, tags: tags.length, resolved, durationMs: Date.now() - started };
}

type RepoRow = { id: string; key: string; host: string; path: string };

/** Digests of moving tags that run somewhere and have not been looked up, or whose "no match" is a day old. */
async function resolveRunningDigests(deps: CheckDeps, repo: RepoRow, tags: string[]): Promise<number> {
  const { db, clients } = deps;
  const now = deps.now();
  const running = await db.$queryRaw<{ tag: string; digest: string | null; platform_digest: string | null }[]>`
    SELECT DISTINCT r.tag, r.digest, r.platform_digest FROM runs r
    WHERE r.repository = ${repo.key} AND r."to" IS NULL AND NOT r.declared AND (r.digest IS NOT NULL OR r.platform_digest IS NOT NULL)`;
  if (running.length === 0) return 0;
  const cached = await db.digestResolution.findMany({ where: { repositoryId: repo.id } });
  const cache = new Map(cached.map((c) => [c.digest, c]));
  const tagRows = await db.upstreamTag.findMany({ where: { repositoryId: repo.id, digest: { not: null } }, select: { name: true, digest: true } });
  const known = new Map<string, string | null>(tagRows.map((t) => [t.name, t.digest]));
  let resolvedCount = 0;

  for (const run of running) {
    const candidates = resolutionCandidates(run.tag, tags);
    if (candidates.length === 0) continue;
    // Compare index with index where the runtime gave one; a platform digest only with platform digests.
    const digest = run.digest ?? run.platform_digest!;
    const isPlatformDigest = run.digest === null;
    const hit = cache.get(digest);
    if (hit && (hit.tag !== null || (hit.retryAt && hit.retryAt > now))) continue;
    let result;
    try {
      result = await resolveDigest(clients.registry, { repo: { host: repo.host, path: repo.path }, runningDigest: digest, isPlatformDigest, candidates, knownDigests: known });
    } catch {
      continue; // the next check tries again
    }
    for (const [tag, d] of result.learned) {
      known.set(tag, d);
      await db.upstreamTag.updateMany({ where: { repositoryId: repo.id, name: tag }, data: { digest: d, digestCheckedAt: now } });
    }
    for (const [tag, platforms] of result.platformDigestsLearned) {
      await db.upstreamTag.updateMany({ where: { repositoryId: repo.id, name: tag }, data: { platformDigests: platforms } });
    }
    const row = { tag: result.tag, resolvedAt: now, retryAt: result.tag ? null : new Date(now.getTime() + DAY) };
    await db.digestResolution.upsert({ where: { repositoryId_digest: { repositoryId: repo.id, digest } }, create: { repositoryId: repo.id, digest, ...row }, update: row });
    cache.set(digest, { repositoryId: repo.id, digest, ...row });
    if (result.tag) resolvedCount++;
  }
  return resolvedCount;
}

/** org.opencontainers.image.source, weekly. Official images are skipped: their label names the packaging repository. */
async function refreshSourceLabel(deps: CheckDeps, repo: RepoRow, tags: string[]): Promise<void> {
  const now = deps.now();
  let label: string | null = null;
  if (!(repo.host === "docker.io" && repo.path.startsWith("library/"))) {
    const newest = tags
      .filter((t) => {
        const p = parseTag(t);
        return p.kind === "version" && !p.isPrerelease && p.flavour === "";
      })
      .sort((a, b) => compareTags(b, a) ?? 0)[0] ?? (tags.includes("latest") ? "latest" : null);
    if (newest) {
      try {
        label = (await deps.clients.registry.getImageLabels({ host: repo.host, path: repo.path }, newest))[SOURCE_LABEL] ?? null;
      } catch {
        label = null;
      }
    }
  }
  await deps.db.upstreamRepository.update({ where: { id: repo.id }, data: { sourceLabel: label, labelCheckedAt: now } });
}
