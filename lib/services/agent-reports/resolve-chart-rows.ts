// A report's Helm release rows as intake stores them: the service is the release's own (`chart:<name>`,
// whatever agent sent it), the "image" is the chart and its version, and `chart.repository` is the key
// of the repository the chart is checked in (see chart-repositories.ts).
import type { AgentReport } from "@/lib/domain/agent-report";
import { chartImage, chartServiceName } from "@/lib/domain/charts";
import type { Db } from "@/lib/db/client";
import { listChartRepositories } from "@/lib/db/queries/services/list-chart-repositories";
import { chartKeyFor } from "../upstream/chart-repositories";

export async function resolveChartRows(db: Db, workspaceId: string, report: AgentReport, serverRegistries: readonly string[]): Promise<AgentReport> {
  const charts = report.workloads.filter((w) => w.kind === "helm_release");
  // Reports without Helm releases, nearly all of them, cost nothing more.
  if (charts.length === 0) return report;
  const policies = await listChartRepositories(db, workspaceId, [...new Set(charts.map((w) => chartServiceName(w.service)))]);
  const workloads = report.workloads.map((w) => {
    if (w.kind !== "helm_release" || !w.chart) return w;
    const service = chartServiceName(w.service);
    const repository = chartKeyFor(w.chart, policies.get(service), serverRegistries);
    return { ...w, service, image: chartImage(w.chart), chart: { ...w.chart, repository } };
  });
  return { ...report, workloads };
}
