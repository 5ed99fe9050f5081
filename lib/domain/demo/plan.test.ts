import { describe, expect, it } from "vitest";
import { agentReportSchema } from "../agent-report";
import { DEMO_SERVICES, demoDeclarations, demoImageDigest, demoReports, RECORDED_HOST } from "./plan";

const now = Date.parse("2026-11-20T12:00:00Z");
const plan = { imageHost: RECORDED_HOST, digestOf: demoImageDigest, recordedTags: true, now };

describe("demoReports", () => {
  const byTarget = demoReports(plan);

  it("gives each target valid reports in time order, the last one observed now", () => {
    expect(byTarget).toHaveLength(4);
    for (const reports of byTarget) {
      for (const r of reports) expect(agentReportSchema.safeParse(r).success).toBe(true);
      const times = reports.map((r) => Date.parse(r.observed_at));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(times.at(-1)).toBe(now);
    }
  });

  it("sends the recorded upstream tags with the last report only", () => {
    for (const reports of byTarget) {
      expect(reports.slice(0, -1).every((r) => (r.registry_results ?? []).length === 0)).toBe(true);
      expect(reports.at(-1)!.registry_results).toHaveLength(DEMO_SERVICES.length);
    }
  });

  it("starts before the widest chart window (90 days), so the charts show a running fleet, not first sightings", () => {
    for (const reports of byTarget) expect(now - Date.parse(reports[0]!.observed_at)).toBeGreaterThan(90 * 86_400_000);
  });

  it("is the same for the same instant, so a second fill repeats the first", () => {
    expect(demoReports(plan)).toEqual(byTarget);
  });
});

describe("demoDeclarations", () => {
  it("declares payments' next release in staging ahead of what runs", () => {
    expect(demoDeclarations(plan).find((d) => d.service === "payments")).toEqual({ service: "payments", image: `${RECORDED_HOST}/acme/payments:1.9.2` });
  });
});
