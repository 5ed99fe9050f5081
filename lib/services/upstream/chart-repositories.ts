// Which repository a Helm release's chart is checked in, and whether the server may call its host.
// The service's policy (`chart_repository`) decides, else the built-in catalog; a repository named
// by the release record itself counts only on a host the server is configured to call.
import { catalogChartHosts, catalogChartKey } from "@/lib/catalog/charts";
import { isServerQueried } from "@/lib/adapters/registries/well-known";
import type { Chart } from "@/lib/domain/agent-report";
import { chartKeyOf, parseChartKey, parseChartRepository, unknownChartKey, type ChartKey } from "@/lib/domain/charts";

/** May the server request this chart repository? OCI: the registries it queries; classic: the catalog's hosts and configured ones. */
export function isChartRepositoryAllowed(key: Pick<ChartKey, "kind" | "host">, serverRegistries: readonly string[]): boolean {
  if (key.kind === "oci") return isServerQueried(key.host, serverRegistries);
  const host = key.host.toLowerCase();
  return catalogChartHosts().has(host) || serverRegistries.some((h) => h.toLowerCase() === host);
}

/** The repository key a release's runs carry: `chart:<name>` when nothing names one the server may use. */
export function chartKeyFor(chart: Pick<Chart, "name" | "repository" | "home">, policyRepository: string | null | undefined, serverRegistries: readonly string[]): string {
  const fromPolicy = policyRepository ? chartKeyOf(policyRepository, chart.name) : null;
  if (fromPolicy) return fromPolicy;
  const fromCatalog = catalogChartKey(chart);
  if (fromCatalog) return fromCatalog;
  const reported = chart.repository ? chartKeyOf(chart.repository, chart.name) : null;
  const parsed = reported ? parseChartKey(reported) : null;
  if (reported && parsed && isChartRepositoryAllowed(parsed, serverRegistries)) return reported;
  return unknownChartKey(chart.name);
}

/**
 * Why the server may not read a policy's `chart_repository`, naming the setting to change; null when it
 * may. Classic repositories served over http must also be insecure registries (https only otherwise).
 */
export function chartRepositoryRefusal(repository: string, config: { serverRegistries: readonly string[]; insecureRegistries: readonly string[] }): string | null {
  const repo = parseChartRepository(repository);
  if (!repo) return null;
  const isHttp = repo.kind === "index" && repo.url.startsWith("http://");
  const isInsecure = config.insecureRegistries.some((h) => h.toLowerCase() === repo.host.toLowerCase());
  if (!isChartRepositoryAllowed(repo, config.serverRegistries)) {
    return `${repo.host} is not a chart repository host the server may call: add it to DRIFTWATCH_SERVER_REGISTRIES${isHttp && !isInsecure ? " and, as it is served over http, to DRIFTWATCH_INSECURE_REGISTRIES" : ""}`;
  }
  if (isHttp && !isInsecure) return `${repo.host} is served over http: add it to DRIFTWATCH_INSECURE_REGISTRIES, or use https://`;
  return null;
}
