// Service page: which version ran on each target over the last thirty days,
// one lane per target (spec "Delivery" item 4). Each version keeps one colour
// across lanes; a strong mark shows where it arrived; hovering gives the dates.
import { formatShortDay, formatShortHour, formatUtcDate, formatUtcMinute } from "@/lib/render/dates";
import { attrs, escapeXml, plural } from "@/lib/render/svg";
import { measureText, truncateToWidth } from "@/lib/render/text-width";
import { MS_PER_DAY, timeTicks } from "@/lib/render/ticks";
import { VERSION_TOKENS } from "@/lib/render/theme";
import { FONT_SIZE, SMALL_FONT_SIZE, baseRules, fillRule, openChart, text, type ChartOptions } from "./frame";

export type TimelineSegment = { version: string; from: Date; to: Date | null };
export type TimelineLane = { label: string; segments: readonly TimelineSegment[] };
export type VersionTimelineInput = {
  from: Date;
  /** The end of the chart; a segment with `to: null` still runs at this instant. */
  to: Date;
  lanes: readonly TimelineLane[];
};

const LANE_HEIGHT = 28;
const BAR_HEIGHT = 20;
const AXIS_HEIGHT = 26;
const MAX_DESC_LANES = 20;
/** Narrower drawings (a phone) write each lane's label on a line of its own above the bar, whole. */
const LABELS_ABOVE_BELOW = 480;
const LABEL_LINE = 16;

const valid = (d: Date | null): d is Date => d !== null && Number.isFinite(d.getTime());

/** Versions in order of their first appearance (ties by name), so colours are stable for the same history. */
function versionOrder(lanes: readonly TimelineLane[]): Map<string, number> {
  const firstSeen = new Map<string, number>();
  for (const lane of lanes) {
    for (const segment of lane.segments) {
      if (!valid(segment.from)) continue;
      const t = segment.from.getTime();
      const seen = firstSeen.get(segment.version);
      if (seen === undefined || t < seen) firstSeen.set(segment.version, t);
    }
  }
  const sorted = [...firstSeen].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new Map(sorted.map(([version], i) => [version, i]));
}

function segmentTitle(segment: TimelineSegment, lane: string): string {
  const end = segment.to === null ? "now" : formatUtcMinute(segment.to);
  const start = formatUtcMinute(segment.from);
  return segment.to === null
    ? `${segment.version} on ${lane}: ${start} UTC → now`
    : `${segment.version} on ${lane}: ${start} → ${end} UTC`;
}

function describe(input: VersionTimelineInput, range: string): string {
  if (input.lanes.length === 0) return `Versions over time ${range}. Nothing ran.`;
  const end = input.to.getTime();
  const lines = input.lanes.slice(0, MAX_DESC_LANES).map((lane) => {
    const inRange = lane.segments.filter((s) => valid(s.from) && s.from.getTime() <= end);
    const versions = new Set(inRange.map((s) => s.version));
    const running = inRange
      .filter((s) => s.to === null || s.to.getTime() >= end)
      .map((s) => s.version)
      .filter((v, i, all) => all.indexOf(v) === i);
    const now = running.length === 0 ? "nothing runs now" : `runs ${running.join(" and ")} now`;
    return `${lane.label}: ${plural(versions.size, "version")}, ${now}`;
  });
  const more = input.lanes.length > MAX_DESC_LANES ? `; and ${plural(input.lanes.length - MAX_DESC_LANES, "more lane")}` : "";
  return `Versions over time ${range}, one lane per target. ${lines.join("; ")}${more}.`;
}

export function renderVersionTimeline(input: VersionTimelineInput, options: ChartOptions = {}): string {
  const width = options.width ?? 720;
  const start = input.from.getTime();
  const end = Math.max(input.to.getTime(), start + 1);
  const order = versionOrder(input.lanes);
  const paletteSize = VERSION_TOKENS.length;

  const root = "dw-timeline";
  const rules = [...baseRules(root)];
  VERSION_TOKENS.forEach((t, i) => rules.push(fillRule(root, `dw-v${i + 1}`, t.fill), fillRule(root, `dw-m${i + 1}`, t.mark)));

  const labelsAbove = width < LABELS_ABOVE_BELOW;
  const laneHeight = labelsAbove ? LANE_HEIGHT + LABEL_LINE : LANE_HEIGHT;
  const longestLabel = Math.max(0, ...input.lanes.map((l) => measureText(l.label, FONT_SIZE)));
  const labelColumn = labelsAbove ? 0 : Math.ceil(Math.min(Math.max(longestLabel + 20, 96), Math.max(96, width * 0.32)));
  const x0 = labelColumn;
  const x1 = width - 8;
  const plotWidth = x1 - x0;
  const x = (t: number) => x0 + ((Math.min(Math.max(t, start), end) - start) / (end - start)) * plotWidth;

  const lanesHeight = Math.max(1, input.lanes.length) * laneHeight;
  const height = AXIS_HEIGHT + lanesHeight + 6;
  const range = `from ${formatUtcDate(input.from)} to ${formatUtcDate(input.to)} (UTC)`;

  let out = openChart({
    root,
    id: options.id ?? "dw-timeline",
    width,
    height,
    title: options.title ?? "Versions over time",
    desc: describe(input, range),
    rules,
    theme: options.theme ?? "auto",
  });

  // Date axis on top, with grid lines through the lanes.
  const ticks = timeTicks(input.from, new Date(end), Math.max(2, Math.floor(plotWidth / 84)));
  const label = ticks.step >= MS_PER_DAY ? formatShortDay : formatShortHour;
  out += `<g class="dw-x-axis">`;
  for (const tick of ticks.values) {
    const tx = Math.round(x(tick.getTime())) + 0.5;
    out += `<line${attrs({ class: "dw-grid", x1: tx, x2: tx, y1: AXIS_HEIGHT - 6, y2: AXIS_HEIGHT + lanesHeight })}/>`;
    const anchor = tx - x0 < 24 ? "start" : x1 - tx < 24 ? "end" : "middle";
    out += text(label(tick), { class: "dw-muted", x: tx, y: 13, "font-size": SMALL_FONT_SIZE, "text-anchor": anchor });
  }
  out += `</g>`;

  if (input.lanes.length === 0) {
    out += text("Nothing ran in this period", { class: "dw-muted", x: x0 + plotWidth / 2, y: AXIS_HEIGHT + LANE_HEIGHT / 2 + 4, "font-size": FONT_SIZE, "text-anchor": "middle" });
  }

  input.lanes.forEach((lane, l) => {
    const laneTop = AXIS_HEIGHT + l * laneHeight;
    const top = laneTop + (labelsAbove ? LABEL_LINE : 0) + (LANE_HEIGHT - BAR_HEIGHT) / 2;
    const shown = truncateToWidth(lane.label, labelsAbove ? width - 4 : labelColumn - 20, FONT_SIZE);
    const labelText = text(shown, { class: "dw-fg", x: labelsAbove ? x0 : 0, y: labelsAbove ? laneTop + LABEL_LINE : top + BAR_HEIGHT / 2 + 4, "font-size": FONT_SIZE });
    out += `<g class="dw-lane">`;
    out += shown === lane.label ? labelText : `<g><title>${escapeXml(lane.label)}</title>${labelText}</g>`;
    out += `<rect${attrs({ class: "dw-track", x: x0, y: top, width: plotWidth, height: BAR_HEIGHT, rx: 3 })}/>`;

    for (const segment of lane.segments) {
      if (!valid(segment.from) || (segment.to !== null && !valid(segment.to))) continue;
      const segStart = segment.from.getTime();
      const segEnd = segment.to === null ? end : segment.to.getTime();
      if (segEnd <= start || segStart >= end || segEnd <= segStart) continue;
      const sx = x(segStart);
      const sw = Math.max(1, x(segEnd) - sx - 1);
      const colour = ((order.get(segment.version) ?? 0) % paletteSize) + 1;
      out += `<g class="dw-seg"><title>${escapeXml(segmentTitle(segment, lane.label))}</title>`;
      out += `<rect${attrs({ class: `dw-v${colour}`, x: sx, y: top, width: sw, height: BAR_HEIGHT, rx: 2 })}/>`;
      if (segStart >= start) out += `<rect${attrs({ class: `dw-m${colour}`, x: sx, y: top, width: Math.min(2, sw), height: BAR_HEIGHT })}/>`;
      if (measureText(segment.version, SMALL_FONT_SIZE, 600) + 12 <= sw) {
        out += text(segment.version, { class: "dw-fg", x: sx + 7, y: top + BAR_HEIGHT / 2 + 4, "font-size": SMALL_FONT_SIZE, "font-weight": 600 });
      }
      out += `</g>`;
    }
    out += `</g>`;
  });
  return `${out}</svg>`;
}
