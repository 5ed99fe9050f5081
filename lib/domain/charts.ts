// Helm charts as upstream repositories. A chart's key names its repository and the chart:
// `oci://host/path/chart` for an OCI registry, `https://host/path#chart` for a classic
// repository (index.yaml). Runs of a Helm release store that key as their repository and the
// chart version as their tag, so history, drift and the matrix treat charts like images.
import { isRegistryHost, isRepositoryPath, normaliseRegistryHost } from "./image-ref";

export type ChartKey =
  | { kind: "oci"; key: string; host: string; path: string }
  | { kind: "index"; key: string; host: string; /** The repository URL, without a trailing slash. */ url: string; chart: string };

const CHART_NAME = /^[a-z0-9][a-z0-9._-]{0,199}$/i;

/** Is this repository key a chart's (rather than an image's)? */
export function isChartKey(key: string): boolean {
  return key.startsWith("oci://") || key.startsWith("https://") || key.startsWith("http://") || key.startsWith("chart:");
}

/** A chart repository as a policy names it: `https://…` (classic) or `oci://host/path`. Null when it is neither. */
export function parseChartRepository(repository: string): { kind: "oci"; host: string; path: string } | { kind: "index"; url: string; host: string } | null {
  if (repository.startsWith("oci://")) {
    const rest = repository.slice("oci://".length).replace(/\/+$/, "");
    const slash = rest.indexOf("/");
    const host = normaliseRegistryHost(slash < 0 ? rest : rest.slice(0, slash));
    const path = slash < 0 ? "" : rest.slice(slash + 1);
    if (!isRegistryHost(host) || (path !== "" && !isRepositoryPath(path))) return null;
    return { kind: "oci", host, path };
  }
  let url: URL;
  try {
    url = new URL(repository);
  } catch {
    return null;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.search || url.hash) return null;
  // People copy the index's own address: the repository is the folder it sits in.
  const path = url.pathname.replace(/\/+$/, "").replace(/\/index\.yaml$/, "");
  return { kind: "index", url: `${url.protocol}//${url.host}${path}`, host: url.host };
}

/**
 * The key of `chart` in `repository`. An OCI repository that already ends with the chart's
 * name (`oci://ghcr.io/org/charts/app` for chart `app`) is the chart itself.
 */
export function chartKeyOf(repository: string, chart: string): string | null {
  if (!CHART_NAME.test(chart)) return null;
  const repo = parseChartRepository(repository);
  if (!repo) return null;
  if (repo.kind === "index") return `${repo.url}#${chart}`;
  const path = repo.path === "" ? chart : repo.path.split("/").at(-1) === chart ? repo.path : `${repo.path}/${chart}`;
  return isRepositoryPath(path) ? `oci://${repo.host}/${path}` : null;
}

/** A chart whose repository is unknown: its runs carry this key, which no upstream check reads. */
export const unknownChartKey = (chart: string) => `chart:${chart}`;

/** Why a repository key is never checked, in one line; null for a key that can be. */
export function uncheckableReason(key: string): string | null {
  return key.startsWith("chart:") ? "no chart repository known: set the service's chart_repository" : null;
}

export function parseChartKey(key: string): ChartKey | null {
  if (key.startsWith("oci://")) {
    const repo = parseChartRepository(key);
    return repo?.kind === "oci" && repo.path !== "" ? { kind: "oci", key, host: repo.host, path: repo.path } : null;
  }
  const hash = key.lastIndexOf("#");
  if (hash < 0) return null;
  const chart = key.slice(hash + 1);
  const repo = parseChartRepository(key.slice(0, hash));
  if (!repo || repo.kind !== "index" || !CHART_NAME.test(chart)) return null;
  return { kind: "index", key, host: repo.host, url: repo.url, chart };
}

/**
 * A repository key as people read it: `chart redis (https://charts.example.com)` for a chart's key, whose
 * `#chart` and `chart:` forms are internal; an image's key as it is.
 */
export function repositoryLabel(key: string): string {
  if (key.startsWith("chart:")) return `chart ${key.slice("chart:".length)}`;
  const chart = parseChartKey(key);
  if (!chart) return key;
  if (chart.kind === "index") return `chart ${chart.chart} (${chart.url})`;
  const slash = chart.path.lastIndexOf("/");
  return slash < 0 ? `chart ${chart.path} (oci://${chart.host})` : `chart ${chart.path.slice(slash + 1)} (oci://${chart.host}/${chart.path.slice(0, slash)})`;
}

/** OCI tags cannot hold `+`: Helm pushes a chart version's build metadata with `_` instead. */
export function chartVersionOfOciTag(tag: string): string {
  return tag.replaceAll("_", "+");
}

/**
 * A Helm release is a service of its own, named `chart:<release>`: charts label their pods with the
 * release's name, and the report schema refuses the prefix on an image workload, so a release's
 * service never meets its pods' image service however they are named.
 */
export const CHART_SERVICE_PREFIX = "chart:";

export type ServiceKind = "image" | "chart";

/** The service of a Helm release reported (or annotated) as `name`. */
export const chartServiceName = (name: string) => (name.startsWith(CHART_SERVICE_PREFIX) ? name : `${CHART_SERVICE_PREFIX}${name}`);

export const serviceKindOf = (name: string): ServiceKind => (name.startsWith(CHART_SERVICE_PREFIX) ? "chart" : "image");

/** What history shows as a Helm release's "image": the chart and its version. */
export const chartImage = (chart: { name: string; version: string }) => `${chart.name}:${chart.version}`;
