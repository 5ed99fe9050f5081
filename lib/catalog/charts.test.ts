import { describe, expect, it } from "vitest";
import { chartKeyOf, parseChartKey } from "@/lib/domain/charts";
import chartsJson from "./charts.json";
import { catalogChartHosts, loadChartCatalog } from "./charts";

describe("the built-in chart catalog", () => {
  it("covers the popular charts, bitnami's among them, each with a usable key", () => {
    const entries = loadChartCatalog();
    for (const chart of ["ingress-nginx", "cert-manager", "kube-prometheus-stack", "argo-cd", "postgresql", "redis"]) expect(entries.map((e) => e.chart)).toContain(chart);
    for (const e of entries) expect(parseChartKey(chartKeyOf(e.repository, e.chart) ?? ""), e.chart).not.toBeNull();
    expect(catalogChartHosts().has("charts.jetstack.io")).toBe(true);
  });

  it("keeps the file sorted and one entry per chart and publisher", () => {
    const keys = (chartsJson as { chart: string; home_host?: string }[]).map((e) => `${e.chart} ${e.home_host ?? ""}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
  });
});
