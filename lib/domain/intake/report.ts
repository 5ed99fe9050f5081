// How a report's workloads are written down: one spelling per instant, the image split into repository
// and tag, and the fingerprint that tells "the same report" apart.
import { createHash } from "node:crypto";
import type { AgentReport, Workload } from "../agent-report";
import { unknownChartKey } from "../charts";
import { parseImageRef } from "../image-ref";
import { isMovingTag, isVersionTag } from "../versions";

/** The part of a report that identifies "the same report": workloads with their start times. */
export function reportFingerprint(report: Pick<AgentReport, "environment" | "workloads">): string {
  const rows = report.workloads
    .map((w) => [w.service, w.container, w.image, w.digest ?? "", w.platform_digest ?? "", isoInstant(w.since), w.main ? "1" : "0"].join("\u0000"))
    .sort();
  return createHash("sha256").update(report.environment + "\u0001" + rows.join("\u0001")).digest("hex");
}

/** Exact version stored with a run: the tag itself when it names one; moving tags resolve later by digest. */
export function versionOfTag(tag: string): string | null {
  return isVersionTag(tag) && !isMovingTag(tag) ? tag : null;
}

/**
 * The repository and tag a history row stores: the image's, or for a Helm release its chart's key
 * (`chart.repository`, which intake sets to the resolved key) and the chart version.
 */
export function runRepositoryOf(w: Pick<Workload, "image" | "kind" | "chart">): { repository: string; tag: string } {
  if (w.kind === "helm_release" && w.chart) return { repository: w.chart.repository ?? unknownChartKey(w.chart.name), tag: w.chart.version };
  return splitImage(w.image);
}

export function splitImage(image: string): { repository: string; tag: string } {
  let split = splitCache.get(image);
  if (split) return split;
  const ref = parseImageRef(image);
  split = ref ? { repository: ref.key, tag: ref.tag ?? (ref.digest ? "" : "latest") } : { repository: image, tag: "" };
  // A fleet runs a bounded set of images, reported again every minute: parse each once.
  if (splitCache.size >= 20_000) splitCache.clear();
  splitCache.set(image, split);
  return split;
}
const splitCache = new Map<string, Readonly<{ repository: string; tag: string }>>();

/** `since` as `Date#toISOString` writes it (UTC, milliseconds), so one instant has one spelling in fingerprints and rows. */
export function isoInstant(value: string): string {
  // Agents send that spelling already: checked, not parsed, since parsing a Date per row is costly.
  const m = CANONICAL_INSTANT.exec(value);
  if (m && Number(m[3]) <= daysInMonth(Number(m[1]), Number(m[2]))) return value;
  return new Date(value).toISOString();
}
const CANONICAL_INSTANT = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}
