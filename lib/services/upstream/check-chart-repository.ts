// One upstream check of a Helm chart: its versions from a classic repository's index.yaml or an OCI
// registry's tag list (never a manifest), stored as the repository's tags. A host the server may not
// call is a failed check that made no request. Failures back off and keep the last good versions,
// as for images.
import { createChartIndexClient, type ChartIndexClient } from "@/lib/adapters/charts/classic/client";
import { countChartVersions, recordChartCheckDone, recordChartCheckFailed } from "@/lib/db/queries/chart-repositories/record-chart-check";
import { storeChartVersions } from "@/lib/db/queries/chart-repositories/store-chart-versions";
import { chartVersionOfOciTag, parseChartKey, type ChartKey } from "@/lib/domain/charts";
import { AppError } from "@/lib/domain/errors";
import { describeRegistryFailure, registryFailureOf } from "@/lib/domain/upstream";
import type { CheckDeps } from "./ports";
import { isChartRepositoryAllowed } from "./chart-repositories";
import { syncReleasesFor } from "./sync-releases";

const HOUR = 3_600_000;

/** The chart's part of checkRepository's outcome. */
export type ChartCheckOutcome =
  | { status: "ok"; host: string; changed: boolean; tags: number; resolved: number; durationMs: number }
  | { status: "failed"; host: string; error: string; retryInMs: number };

type ChartRepoRow = { id: string; key: string; host: string; failures: number; tagsFingerprint: string | null };

let fallbackCharts: ChartIndexClient | null = null;

export async function checkChartRepository(
  deps: CheckDeps, repo: ChartRepoRow, started: number, helpers: { fingerprint: (tags: readonly string[]) => string; retryDelayMs: (failures: number) => number },
): Promise<ChartCheckOutcome> {
  const { db } = deps;
  const now = deps.now;
  const key = parseChartKey(repo.key);
  let versions: { name: string; created: Date | null }[];
  try {
    if (!key) throw new AppError("invalid_input", `${repo.key} is not a chart repository`);
    if (!isChartRepositoryAllowed(key, deps.config.serverRegistries)) throw new NotAllowedError(key);
    versions = await listChartVersions(deps, key);
    if (versions.length === 0 && (await countChartVersions(db, repo.id)) > 0) {
      throw new AppError("registry_unavailable", `${repo.key}: the repository listed no versions; the stored list is kept.`);
    }
  } catch (err) {
    const failures = repo.failures + 1;
    const backoff = helpers.retryDelayMs(failures);
    const retryInMs = err instanceof AppError && err.retryAfterSeconds ? Math.max(err.retryAfterSeconds * 1000, backoff) : backoff;
    const error = describeChartFailure(repo.host, key, err);
    await recordChartCheckFailed(db, repo.id, { failures, error, dueAt: new Date(now.getTime() + retryInMs), durationMs: Date.now() - started });
    return { status: "failed", host: repo.host, error, retryInMs };
  }
  const fingerprint = helpers.fingerprint(versions.map((v) => v.name));
  const changed = fingerprint !== repo.tagsFingerprint;
  if (changed) await storeChartVersions(db, repo.id, versions, now);
  // Release notes and dates where a service's policy names the chart's forge (github / gitlab).
  await syncReleasesFor(deps, repo.key, null, { force: changed });
  await recordChartCheckDone(db, repo.id, { checkedAt: now, dueAt: new Date(now.getTime() + HOUR), fingerprint: changed ? fingerprint : null, durationMs: Date.now() - started });
  return { status: "ok", host: repo.host, changed, tags: versions.length, resolved: 0, durationMs: Date.now() - started };
}

async function listChartVersions(deps: CheckDeps, key: ChartKey): Promise<{ name: string; created: Date | null }[]> {
  if (key.kind === "oci") {
    // Tags only: listing them is no pull, and a chart's manifest says nothing the check needs.
    const tags = await deps.clients.registry.listTags({ host: key.host, path: key.path });
    return [...new Set(tags.map(chartVersionOfOciTag))].map((name) => ({ name, created: null }));
  }
  const charts = deps.clients.charts ?? (fallbackCharts ??= createChartIndexClient({ insecureHosts: deps.config.insecureRegistries }));
  const versions = await charts.listVersions(key.url, key.chart);
  const seen = new Map<string, Date | null>();
  for (const v of versions) if (!seen.has(v.version)) seen.set(v.version, v.created);
  return [...seen].map(([name, created]) => ({ name, created }));
}

class NotAllowedError extends AppError {
  constructor(key: ChartKey) {
    super("forbidden", `${key.host}: not a chart repository host the server may call; list it in DRIFTWATCH_SERVER_REGISTRIES`);
  }
}

function describeChartFailure(host: string, key: ChartKey | null, err: unknown): string {
  if (err instanceof NotAllowedError || !key) return (err as Error).message;
  if (key.kind === "index" && err instanceof AppError && err.code === "not_found") {
    return /is not in/.test(err.message) ? `${key.host}: chart ${key.chart} is not in its index.yaml` : `404 from ${key.host}: no index.yaml at ${key.url}`;
  }
  if (key.kind === "index" && err instanceof AppError && err.code === "forbidden") return `${(err as Error).message.includes("401") ? 401 : 403} from ${key.host}: the chart repository refused access`;
  return describeRegistryFailure(registryFailureOf(host, err));
}
