// Versions over the last thirty days: one lane per environment, or per
// target where an environment has several. Drawn on the server; hovering a
// segment shows its dates (SVG <title>), no script.
import { ChartFigure } from "@/components/ui/chart-figure";
import { renderVersionTimeline, type TimelineLane } from "@/lib/render/charts";
import { HISTORY_DAYS, type ServiceDetail } from "@/lib/services/services/get-detail";

export function timelineLanes(detail: ServiceDetail): TimelineLane[] {
  const order = new Map(detail.environments.map((e, i) => [e.name, i] as const));
  const byEnv = new Map<string, Map<string, ServiceDetail["history"]>>();
  for (const h of detail.history) {
    const targets = byEnv.get(h.environment) ?? new Map<string, ServiceDetail["history"]>();
    targets.set(h.target, [...(targets.get(h.target) ?? []), h]);
    byEnv.set(h.environment, targets);
  }
  const lanes: TimelineLane[] = [];
  for (const [env, targets] of [...byEnv].sort((a, b) => (order.get(a[0]) ?? 99) - (order.get(b[0]) ?? 99))) {
    // What ran, not what Git declares, unless Git is all there is.
    const running = [...targets].filter(([, rows]) => rows.some((r) => !r.declared));
    const shown = running.length ? running : [...targets];
    for (const [target, rows] of shown.sort((a, b) => a[0].localeCompare(b[0]))) {
      lanes.push({
        label: shown.length > 1 ? `${env} · ${target}` : rows.every((r) => r.declared) ? `${env} (Git)` : env,
        segments: rows.map((r) => ({ version: r.version ?? r.tag, from: new Date(r.from), to: r.to ? new Date(r.to) : null })),
      });
    }
  }
  return lanes;
}

export function VersionTimeline({ detail, now }: { detail: ServiceDetail; now: Date }) {
  const lanes = timelineLanes(detail);
  if (lanes.length === 0) return <p className="muted">Nothing ran in the last {HISTORY_DAYS} days.</p>;
  const draw = (width: number, suffix: string) => renderVersionTimeline(
    { from: new Date(now.getTime() - HISTORY_DAYS * 86_400_000), to: now, lanes },
    { id: `svc-timeline${suffix}`, theme: "auto", width, title: `${detail.service.name}: versions over the last ${HISTORY_DAYS} days` },
  );
  return <ChartFigure draw={draw} width={1100} />;
}
