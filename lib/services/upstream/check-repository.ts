// One upstream check of one repository: list its tags; when the list is
// unchanged that is the whole cost (one request per tag page). When it
// changed, store it. Then resolve running digests of moving tags that have not
// been looked up (HEADs newest first; two manifest GETs at most for a platform
// digest, from the host's pull budget), and note whether the image's source
// label is the release source of any service (read-source-labels.ts reads it).
import { createHash } from "node:crypto";
import { isPrivateRepositoryError } from "@/lib/adapters/registries/client";
import type { RegistryClient } from "@/lib/adapters/registries/client";
import { resolveDigest } from "@/lib/adapters/registries/resolve";
import { policiesOfRepository } from "@/lib/db/queries/services/list-policies-of-repository";
import { countUpstreamTags } from "@/lib/db/queries/upstream/count-upstream-tags";
import { getUpstreamRepository } from "@/lib/db/queries/upstream/get-upstream-repository";
import { handRepositoryToAgents } from "@/lib/db/queries/upstream/hand-repository-to-agents";
import { listDigestResolutions } from "@/lib/db/queries/upstream/list-digest-resolutions";
import { listRunningDigests } from "@/lib/db/queries/upstream/list-running-digests";
import { listTagDigests } from "@/lib/db/queries/upstream/list-tag-digests";
import { putDigestResolution } from "@/lib/db/queries/upstream/put-digest-resolution";
import { recordCheckFailure } from "@/lib/db/queries/upstream/record-check-failure";
import { recordCheckSuccess } from "@/lib/db/queries/upstream/record-check-success";
import { recordTagDigest } from "@/lib/db/queries/upstream/record-tag-digest";
import { recordTagPlatformDigests } from "@/lib/db/queries/upstream/record-tag-platform-digests";
import { replaceUpstreamTags } from "@/lib/db/queries/upstream/replace-upstream-tags";
import { AppError } from "@/lib/domain/errors";
import type { Policy } from "@/lib/domain/policy";
import { describeRegistryFailure, registryFailureOf } from "@/lib/domain/upstream";
import { isSourceLabelNeeded } from "@/lib/domain/registry-budget/label-schedule";
import { resolutionCandidates } from "@/lib/domain/running-version";
import type { CheckDeps } from "./ports";
import { catalogFor } from "../services/catalog-lookup";
import { isChartKey } from "@/lib/domain/charts";
import { checkChartRepository } from "./check-chart-repository";
import { noteRateLimit, notePullsRefused, rationedHost, spendPulls } from "./pull-budget";
import { syncReleasesFor } from "./sync-releases";

export type { CheckDeps } from "./ports";

export type CheckOutcome =
  | { status: "skipped"; reason: "agent" | "missing" }
  | { status: "ok"; host: string; changed: boolean; tags: number; resolved: number; durationMs: number; quotaWait?: QuotaWait }
  | { status: "private" }
  | { status: "failed"; host: string; error: string; retryInMs: number };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Running digests left unresolved because the host had no pull to spare (or refused one): tried again at
 * `until`. `fresh`: held back by this check, not only still waiting from an earlier one.
 */
export type QuotaWait = { host: string; name: string; digests: number; until: Date; refused: boolean; fresh: boolean };

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
  const repo = await getUpstreamRepository(db, repositoryId);
  if (!repo) return { status: "skipped", reason: "missing" };
  if (repo.checkedBy === "agent") return { status: "skipped", reason: "agent" };
  if (isChartKey(repo.key)) return checkChartRepository(deps, repo, started, { fingerprint: tagsFingerprint, retryDelayMs });
  const target = { host: repo.host, path: repo.path };
  const now = deps.now;

  let tags: string[];
  try {
    tags = await clients.registry.listTags(target);
    // An empty answer where tags were stored is a registry glitch, not every tag deleted: keep the list.
    if (tags.length === 0 && (await countUpstreamTags(db, repo.id)) > 0) {
      throw new AppError("registry_unavailable", `${repo.key}: the registry listed no tags; the stored list is kept.`);
    }
  } catch (err) {
    if (isPrivateRepositoryError(err)) {
      // Not a failure: the agents check it from now on and their reports set its state; until then it is
      // unchecked, with the registry's answer kept as the reason.
      await handRepositoryToAgents(db, repo.id, describeRegistryFailure(registryFailureOf(repo.host, err)), new Date(now.getTime() + DAY));
      return { status: "private" };
    }
    const failures = repo.failures + 1;
    const retryInMs = err instanceof AppError && err.retryAfterSeconds ? Math.max(err.retryAfterSeconds * 1000, retryDelayMs(failures)) : retryDelayMs(failures);
    // One line a user understands; checkedAt and the tags stay what the last good check learned.
    const error = describeRegistryFailure(registryFailureOf(repo.host, err));
    await recordCheckFailure(db, repo.id, { failures, error, dueAt: new Date(now.getTime() + retryInMs), durationMs: Date.now() - started });
    return { status: "failed", host: repo.host, error, retryInMs };
  }

  const fingerprint = tagsFingerprint(tags);
  const changed = fingerprint !== repo.tagsFingerprint;
  if (changed) {
    await db.$transaction(
      (tx) => replaceUpstreamTags(tx, repo.id, tags, now),
      // Prisma's defaults (2 s to get a connection) fail checks on a busy machine, after the tags were
      // listed: the retry would list them again. Wait as long as report intake does.
      { maxWait: 15_000, timeout: 30_000 },
    );
  }

  const { resolved, quotaWait } = await resolveRunningDigests(deps, repo, tags);

  const policies = (await policiesOfRepository(db, repo.key)) as (Policy | null)[];
  const catalog = catalogFor(repo.key);
  const labelNeeded = isSourceLabelNeeded({
    repositoryKey: repo.key,
    catalogNamesForge: Boolean(catalog?.github || catalog?.gitlab),
    policiesNameForge: policies.map((p) => Boolean(p?.github || p?.gitlab)),
  });
  await syncReleasesFor(deps, repo.key, repo.sourceLabel, { force: changed, policies });

  // The fingerprint only when the tags changed: a write of it counts as new data for drift (evaluation-marker.ts).
  // A digest waiting for the pull budget is looked up when the window refills, if that comes before the hourly check.
  const dueAt = new Date(Math.min(now.getTime() + HOUR, Math.max(quotaWait?.until.getTime() ?? Infinity, now.getTime() + 60_000)));
  await recordCheckSuccess(db, repo.id, {
    checkedAt: now, dueAt, tagsFingerprint: changed ? fingerprint : undefined,
    labelNeeded: labelNeeded !== repo.labelNeeded ? labelNeeded : undefined,
    durationMs: Date.now() - started,
  });
  return { status: "ok", host: repo.host, changed, tags: tags.length, resolved, durationMs: Date.now() - started, ...(quotaWait ? { quotaWait } : {}) };
}

type RepoRow = { id: string; key: string; host: string; path: string };

/** Our own budget has no pull to spare (the host did not refuse one). */
class BudgetSpentError extends AppError {
  constructor(host: string, readonly nextAt: Date) {
    super("rate_limited", `${host}: no pulls to spare before ${nextAt.toISOString()}.`, { retryAfterSeconds: 60 });
  }
}

/** Digests of moving tags that run somewhere and have not been looked up, or whose "no match" is a day old. */
async function resolveRunningDigests(deps: CheckDeps, repo: RepoRow, tags: string[]): Promise<{ resolved: number; quotaWait: QuotaWait | null }> {
  const { db, clients } = deps;
  const now = deps.now;
  const running = await listRunningDigests(db, repo.key);
  if (running.length === 0) return { resolved: 0, quotaWait: null };
  const cached = await listDigestResolutions(db, repo.id);
  const cache = new Map(cached.map((c) => [c.digest, c]));
  const tagRows = await listTagDigests(db, repo.id);
  const known = new Map<string, string | null>(tagRows.map((t) => [t.name, t.digest]));
  // What earlier pulls taught, read back before pulling again (the digest they were read for is the stored one).
  const knownPlatformDigests = new Map<string, readonly string[]>(tagRows.filter((t) => t.platformDigests.length > 0).map((t) => [t.name, t.platformDigests]));
  // Each pull's lesson is stored at once: a resolution cut short by the budget keeps what it paid for.
  const onPlatformDigests = async (tag: string, digest: string, platforms: string[]) => {
    known.set(tag, digest);
    knownPlatformDigests.set(tag, platforms);
    await recordTagDigest(db, repo.id, tag, digest, now);
    await recordTagPlatformDigests(db, repo.id, tag, platforms);
  };
  const isMirrored = rationedHost(deps.config, repo.host)?.mirror != null;
  let resolvedCount = 0;
  let quotaWait: QuotaWait | null = null;
  const waitFor = async (digest: string, until: Date, refused: boolean, fresh: boolean) => {
    if (fresh) await putDigestResolution(db, repo.id, digest, { tag: null, resolvedAt: now, retryAt: until, waitingQuota: true });
    const name = rationedHost(deps.config, repo.host)?.profile.name ?? repo.host;
    quotaWait = quotaWait
      ? { ...quotaWait, digests: quotaWait.digests + 1, until: until < quotaWait.until ? until : quotaWait.until, refused: quotaWait.refused || refused, fresh: quotaWait.fresh || fresh }
      : { host: repo.host, name, digests: 1, until, refused, fresh };
  };
  // A platform digest costs a manifest GET per candidate looked into: each a pull from the host's budget.
  const registry: RegistryClient = {
    ...clients.registry,
    getManifest: async (target, reference, opts) => {
      // A mirror has a budget only if it passes the host's headers on: a free HEAD asks before the first pull.
      // Stored before the spend either way: a pull granted before the count is stored would not be counted.
      if (isMirrored) {
        if (!clients.registry.rateLimitOf(repo.host)) await clients.registry.headDigest(target, reference).catch(() => null);
        await noteRateLimit(deps, repo.host);
      }
      let spend = await spendPulls(deps, repo.host, "resolve", 1);
      if (!spend.granted) {
        // Refused on what was stored: ask again with the host's latest word (its window may be longer), so the wait says when.
        await noteRateLimit(deps, repo.host);
        spend = await spendPulls(deps, repo.host, "resolve", 1);
      }
      if (!spend.granted) throw new BudgetSpentError(repo.host, spend.nextAt);
      return clients.registry.getManifest(target, reference, opts);
    },
  };

  for (const run of running) {
    const candidates = resolutionCandidates(run.tag, tags);
    if (candidates.length === 0) continue;
    // Compare index with index where the runtime gave one; a platform digest only with platform digests.
    const digest = run.digest ?? run.platform_digest!;
    const isPlatformDigest = run.digest === null;
    const hit = cache.get(digest);
    if (hit && (hit.tag !== null || (hit.retryAt && hit.retryAt > now))) {
      if (hit.waitingQuota && hit.retryAt) await waitFor(digest, hit.retryAt, false, false);
      continue;
    }
    let result;
    try {
      result = await resolveDigest(registry, { repo: { host: repo.host, path: repo.path }, runningDigest: digest, isPlatformDigest, candidates, knownDigests: known, knownPlatformDigests, onPlatformDigests });
    } catch (err) {
      if (err instanceof BudgetSpentError) {
        await waitFor(digest, err.nextAt, false, true);
      } else if (err instanceof AppError && err.code === "rate_limited") {
        await notePullsRefused(deps, repo.host, err.retryAfterSeconds);
        await waitFor(digest, new Date(now.getTime() + (err.retryAfterSeconds ?? 3600) * 1000), true, true);
      }
      continue; // the next check tries again
    } finally {
      await noteRateLimit(deps, repo.host);
    }
    for (const [tag, d] of result.learned) {
      if (result.platformDigestsLearned.has(tag)) continue; // stored as it was pulled
      known.set(tag, d);
      await recordTagDigest(db, repo.id, tag, d, now);
    }
    const row = { tag: result.tag, resolvedAt: now, retryAt: result.tag ? null : new Date(now.getTime() + DAY) };
    await putDigestResolution(db, repo.id, digest, row);
    cache.set(digest, { repositoryId: repo.id, digest, ...row, waitingQuota: false });
    if (result.tag) resolvedCount++;
  }
  return { resolved: resolvedCount, quotaWait };
}
