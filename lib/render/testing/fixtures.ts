// Realistic chart data for tests, previews and the bench; deterministic.
import type { ArrivalsInput, DriftTrendInput, TimelineLane, VersionTimelineInput } from "@/lib/render/charts";

const DAY = 86_400_000;
const HOUR = 3_600_000;

export const NOW = new Date("2026-11-20T10:00:00Z");

/** Twelve weeks of arrivals in dev → staging → production, Mondays from 2026-08-31. */
export function sampleArrivals(): ArrivalsInput {
  const dev = [5, 7, 4, 8, 6, 9, 3, 7, 10, 6, 8, 5];
  const staging = [3, 4, 3, 5, 4, 6, 2, 4, 6, 4, 5, 3];
  const production = [2, 2, 1, 3, 2, 4, 1, 2, 3, 3, 3, 2];
  return {
    environments: ["dev", "staging", "production"],
    weeks: dev.map((d, i) => ({
      weekStart: new Date(Date.UTC(2026, 7, 31) + i * 7 * DAY).toISOString().slice(0, 10),
      byEnvironment: { dev: d, staging: staging[i] ?? 0, production: production[i] ?? 0 },
    })),
  };
}

/** Thirty days of open drift ending 2026-11-20. */
export function sampleDriftTrend(): DriftTrendInput {
  return {
    days: Array.from({ length: 30 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 9, 22) + i * DAY).toISOString().slice(0, 10),
      byKind: {
        upstream: 6 + Math.round(3 * Math.sin(i / 4)) + (i > 20 ? 3 : 0),
        env: i % 7 < 3 ? 2 : 1,
        inconsistent: i === 9 || i === 10 || i === 24 ? 1 : 0,
        declared: i >= 14 && i < 19 ? 2 : 0,
        eol: i >= 12 ? 1 : 0,
      },
    })),
  };
}

/** Thirty days of versions on four targets, ending at NOW. */
export function sampleTimeline(): VersionTimelineInput {
  const at = (day: number, hour = 0) => new Date(Date.UTC(2026, 9, 21) + day * DAY + hour * HOUR);
  const lanes: TimelineLane[] = [
    {
      label: "dev · docker@dev-1",
      segments: [
        { version: "1.27.1", from: at(-9, 9), to: at(3, 14) },
        { version: "1.27.2", from: at(3, 14), to: at(12, 10) },
        { version: "1.27.3", from: at(12, 10), to: at(19, 16) },
        { version: "1.28.0-rc.1", from: at(19, 16), to: at(23, 9) },
        { version: "1.28.0", from: at(23, 9), to: null },
      ],
    },
    {
      label: "staging · k8s/staging",
      segments: [
        { version: "1.27.1", from: at(-5, 11), to: at(6, 15) },
        { version: "1.27.2", from: at(6, 15), to: at(15, 11) },
        { version: "1.27.3", from: at(15, 11), to: at(26, 13) },
        { version: "1.28.0", from: at(26, 13), to: null },
      ],
    },
    {
      label: "production · docker@host-1",
      segments: [
        { version: "1.27.1", from: at(-2, 8), to: at(13, 8) },
        { version: "1.27.3", from: at(18, 8), to: null },
      ],
    },
    {
      label: "production · docker@host-2",
      segments: [
        { version: "1.27.1", from: at(-2, 8), to: at(13, 8) },
        { version: "1.27.2", from: at(13, 8), to: at(18, 9) },
        { version: "1.27.3", from: at(18, 9), to: null },
      ],
    },
  ];
  return { from: new Date(NOW.getTime() - 30 * DAY), to: NOW, lanes };
}

/** A heavy timeline: `lanes` targets sharing `segments` segments in all, back to back. */
export function largeTimeline(segments = 2_000, laneCount = 20): VersionTimelineInput {
  const from = new Date(NOW.getTime() - 30 * DAY);
  const perLane = Math.ceil(segments / laneCount);
  const span = (30 * DAY) / perLane;
  const lanes: TimelineLane[] = Array.from({ length: laneCount }, (_, l) => ({
    label: `env-${Math.floor(l / 4)} · node-${l}`,
    segments: Array.from({ length: Math.min(perLane, segments - l * perLane) }, (_, s) => ({
      version: `2.${Math.floor(s / 10)}.${s % 10}`,
      from: new Date(from.getTime() + s * span + l * 60_000),
      to: s === perLane - 1 ? null : new Date(from.getTime() + (s + 1) * span + l * 60_000),
    })),
  }));
  return { from, to: NOW, lanes };
}
