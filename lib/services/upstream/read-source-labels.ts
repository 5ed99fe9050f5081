// Source labels (org.opencontainers.image.source), read apart from the hourly
// check and after it, so the manifests that resolve running digests are
// spent first: a few repositories a tick, as the host's pull budget allows.
// A read costs a manifest GET (two for a multi-platform image), a pull on
// Docker Hub; the free HEAD before it refreshes the host's own count. A read
// that fails keeps the last good label and is retried within hours.
import { AppError } from "@/lib/domain/errors";
import { leaseDueLabels, type DueLabel } from "@/lib/db/queries/upstream/lease-due-labels";
import { listTagNames } from "@/lib/db/queries/upstream/list-tag-names";
import { markLabelWaiting } from "@/lib/db/queries/upstream/mark-label-waiting";
import { recordLabelFailure } from "@/lib/db/queries/upstream/record-label-failure";
import { recordLabelRead } from "@/lib/db/queries/upstream/record-label-read";
import { labelRetryAt, nextLabelReadAt } from "@/lib/domain/registry-budget/label-schedule";
import { compareTags, parseTag } from "@/lib/domain/versions";
import type { CheckDeps } from "./check-repository";
import { notePullsRefused, noteRateLimit, rationedHost, spendPulls } from "./pull-budget";
import { syncReleasesFor } from "./sync-releases";

const SOURCE_LABEL = "org.opencontainers.image.source";
/** An index and one of its platform manifests. */
const MAX_LABEL_PULLS = 2;
const DEFAULT_LIMIT = 25;

export type LabelOutcome = "read" | "waiting" | "failed" | "no_tag";
/** A host that answered a label read with 429 (Too Many Requests), and until when its pulls wait. */
export type LabelRefusal = { host: string; name: string; until: Date };
export type LabelTickResult = Record<LabelOutcome, number> & { refused?: LabelRefusal[] };

/** The image whose label names the source: the newest plain release, else `latest`. */
export function labelReference(tags: readonly string[]): string | null {
  const releases = tags.filter((t) => {
    const p = parseTag(t);
    return p.kind === "version" && !p.isPrerelease && p.flavour === "";
  });
  return releases.sort((a, b) => compareTags(b, a) ?? 0)[0] ?? (tags.includes("latest") ? "latest" : null);
}

export async function readDueSourceLabels(deps: CheckDeps, opts: { limit?: number } = {}): Promise<LabelTickResult> {
  const result: LabelTickResult = { read: 0, waiting: 0, failed: 0, no_tag: 0 };
  const due = await leaseDueLabels(deps.db, deps.now, opts.limit ?? DEFAULT_LIMIT);
  // Once a host has no pulls to spare, its other repositories wait for the same moment.
  const waitingUntil = new Map<string, Date>();
  for (const repo of due) {
    const until = waitingUntil.get(repo.host);
    if (until) {
      await markWaiting(deps, repo, until);
      result.waiting++;
      continue;
    }
    const outcome = await readSourceLabel(deps, repo);
    if (outcome.kind === "waiting") waitingUntil.set(repo.host, outcome.until);
    if (outcome.kind === "waiting" && outcome.refused) {
      (result.refused ??= []).push({ host: repo.host, name: rationedHost(deps.config, repo.host)?.profile.name ?? repo.host, until: outcome.until });
    }
    result[outcome.kind]++;
  }
  return result;
}

type ReadOutcome = { kind: "read" | "failed" | "no_tag" } | { kind: "waiting"; until: Date; refused?: boolean };

async function readSourceLabel(deps: CheckDeps, repo: DueLabel): Promise<ReadOutcome> {
  const { db } = deps;
  const target = { host: repo.host, path: repo.path };
  const tags = await listTagNames(db, repo.id);
  const reference = labelReference(tags);
  const now = deps.now;
  if (!reference) {
    await recordLabelRead(db, repo.id, now, nextLabelReadAt(now, repo.id));
    return { kind: "no_tag" };
  }
  const isRationed = rationedHost(deps.config, repo.host) !== null;
  let spent = 0;
  let release: (unused: number) => Promise<void> = async () => {};
  try {
    if (isRationed) {
      // Free, and answered with the host's own count: what the user's own pulls left us.
      await deps.clients.registry.headDigest(target, reference);
      await noteRateLimit(deps, repo.host);
      const spend = await spendPulls(deps, repo.host, "label", MAX_LABEL_PULLS);
      if (!spend.granted) {
        await markWaiting(deps, repo, spend.nextAt);
        return { kind: "waiting", until: spend.nextAt };
      }
      release = spend.release;
    }
    const labels = await deps.clients.registry.getImageLabels(target, reference, { onPull: () => spent++ });
    await release(MAX_LABEL_PULLS - spent);
    await noteRateLimit(deps, repo.host);
    const label = labels[SOURCE_LABEL] ?? null;
    await recordLabelRead(db, repo.id, now, nextLabelReadAt(now, repo.id), label);
    // Release notes follow a new label at once rather than at the next hourly check (a forge fetched
    // within the hour is not fetched again).
    await syncReleasesFor(deps, repo.key, label).catch(() => 0);
    return { kind: "read" };
  } catch (err) {
    await release(MAX_LABEL_PULLS - spent).catch(() => {});
    await noteRateLimit(deps, repo.host).catch(() => {});
    if (err instanceof AppError && err.code === "rate_limited") {
      await notePullsRefused(deps, repo.host, err.retryAfterSeconds);
      const until = new Date(now.getTime() + (err.retryAfterSeconds ?? 3600) * 1000);
      await markWaiting(deps, repo, until);
      return { kind: "waiting", until, refused: true };
    }
    const failures = repo.labelFailures + 1;
    const message = err instanceof Error ? err.message : String(err);
    // The last good label stays: release notes do not vanish because one read failed.
    await recordLabelFailure(db, repo.id, failures, message, labelRetryAt(now, failures));
    return { kind: "failed" };
  }
}

async function markWaiting(deps: CheckDeps, repo: DueLabel, until: Date): Promise<void> {
  await markLabelWaiting(deps.db, repo.id, until);
}
