// The words and links of a matrix cell, apart from the markup so they can be
// tested without rendering.
import { uncheckableReason } from "@/lib/domain/charts";
import { DRIFT_LABEL } from "@/components/ui/drift";
import { formatWhen, lasted, timeAgo } from "@/components/ui/format";
import { DRIFT_STATE_NAME } from "@/lib/domain/words";
import type { DriftKind } from "@/lib/domain/policy";
import { compareTags } from "@/lib/domain/versions";
import type { MatrixCell, MatrixDriftDetail, MatrixUpstream } from "./matrix-types";

/** Most alarming first. */
export const CELL_ORDER: readonly DriftKind[] = ["eol", "declared", "inconsistent", "env", "upstream"];

const MAX_VERSIONS = 3;

/** The service page at that environment. */
export function cellHref(service: string, environment: string): string {
  return `/services/${encodeURIComponent(service)}?env=${encodeURIComponent(environment)}`;
}

/**
 * What the cell shows: the oldest version's display, or, where its targets run
 * different versions, each of them oldest first (`3.1.1 / 3.2.0`, at most three).
 * Runtime targets count; Git's only where nothing runs.
 */
export function cellVersionsText(cell: Pick<MatrixCell, "display" | "targets" | "declared">): string {
  const counted = cell.declared ? cell.targets : cell.targets.filter((t) => t.declared !== true);
  const versions = [...new Set(counted.map((t) => t.version ?? t.tag))];
  if (versions.length <= 1) return cell.display;
  versions.sort((a, b) => compareTags(a, b) ?? a.localeCompare(b));
  const shown = versions.slice(0, MAX_VERSIONS).join(" / ");
  return versions.length > MAX_VERSIONS ? `${shown} +${versions.length - MAX_VERSIONS}` : shown;
}

/** A drift's details where the cell has them; a bare kind counts as announced, as on the badge. */
export function driftDetailOf(cell: Pick<MatrixCell, "drift_details">, kind: DriftKind): MatrixDriftDetail | null {
  return cell.drift_details?.find((d) => d.kind === kind) ?? null;
}

/** A drift still within its announcement delay: drawn calmer than announced drift. */
export function isWithinDelay(detail: MatrixDriftDetail | null): boolean {
  return detail !== null && detail.state === "open";
}

/** The tooltip of a drift marker: kind, how long and since when, notified or not, and the move where known. */
export function driftTooltipText(kind: DriftKind, detail: MatrixDriftDetail | null, now: Date): string {
  const label = DRIFT_LABEL[kind];
  if (detail === null) return `${label}; the service page has its dates`;
  const since = `for ${lasted(detail.opened_at, now)}, since ${formatWhen(detail.opened_at)}`;
  const state = DRIFT_STATE_NAME[detail.state];
  const move = detail.running && detail.expected ? `; ${detail.running} → ${detail.expected}` : "";
  const silenced = detail.silenced === true ? "; put off" : "";
  return `${label}: ${since}; ${state}${move}${silenced}`;
}

/** A stable element id for a marker's tooltip. */
export function tooltipId(service: string, environment: string, kind: DriftKind): string {
  return `t-${`${service}-${environment}`.replace(/[^A-Za-z0-9_-]/g, "_")}-${kind}`;
}

const CHECK_OVERDUE_MS = 24 * 3_600_000;

/**
 * The line under the upstream newest: what is wrong with the knowledge, or
 * nothing when it is fresh. Without a state (older callers), an overdue check
 * says when it last succeeded.
 */
export function upstreamNote(upstream: MatrixUpstream, now: Date): { text: string; tone: "bad" | "warn" | "muted" } | null {
  const checked = upstream.checked_at;
  const age = checked ? `last good check ${timeAgo(checked, now)}` : "never checked successfully";
  switch (upstream.state) {
    case "ok":
      return null;
    case "failed":
      return { text: `check failed: ${upstream.error ?? "no reason kept"}; ${age}`, tone: "bad" };
    case "stale":
      return { text: `stale: ${age}`, tone: "warn" };
    case "unchecked":
      return { text: (upstream.repository ? uncheckableReason(upstream.repository) : null) ?? "not checked yet", tone: "muted" };
    default:
      if (!checked) return { text: "not checked yet", tone: "muted" };
      return now.getTime() - new Date(checked).getTime() > CHECK_OVERDUE_MS ? { text: `checked ${timeAgo(checked, now)}`, tone: "muted" } : null;
  }
}

/**
 * How long ago a target last reported: in seconds under a minute, where "just now" would
 * read as live (the quiet delay can be that short).
 */
export function lastReportAge(iso: string | null | undefined, now: Date): string {
  if (!iso) return "never";
  const ms = now.getTime() - new Date(iso).getTime();
  return ms < 60_000 ? `${Math.max(0, Math.round(ms / 1000))} seconds ago` : timeAgo(iso, now);
}

/** The exact time of a last report, for a tooltip. */
export function lastReportTitle(iso: string | null | undefined): string {
  return iso ? `last report ${formatWhen(iso)}` : "never reported";
}

/**
 * What a cell says about targets that stopped reporting: the whole cell when every one of
 * them is quiet (with its last report's age), else how many of them are.
 */
export function quietNote(cell: Pick<MatrixCell, "quiet" | "last_seen_at" | "targets">, now: Date): string | null {
  if (cell.quiet) return `quiet: last report ${lastReportAge(cell.last_seen_at, now)}`;
  const running = cell.targets.filter((t) => t.declared !== true);
  const quiet = running.filter((t) => t.state === "quiet");
  if (quiet.length === 0) return null;
  return `${quiet.length} of ${running.length} targets quiet (${quiet.map((t) => `${t.name}, last report ${lastReportAge(t.last_seen_at, now)}`).join("; ")})`;
}

/** The end-of-life badge's tooltip: which cycle, the date, and the move that ends it. */
export function eolTooltipText(eol: NonNullable<MatrixCell["eol"]>, newest: string | null): string {
  const cycle = `${eol.product} ${eol.cycle}`;
  const when = eol.eol_date
    ? eol.state === "passed" ? `reached its end of life on ${eol.eol_date}` : `reaches its end of life on ${eol.eol_date}`
    : eol.state === "passed" ? "has reached its end of life" : "reaches its end of life soon";
  const fix = newest ? `move to a supported cycle, such as ${newest} (the newest release)` : "move to a supported cycle";
  return `${cycle} ${when}: no more security fixes. To fix: ${fix}.`;
}

/** `service\0environment` → the quiet note of each cell that has one, for pages that show those versions elsewhere. */
export function quietNotesByCell(services: readonly { name: string; cells: readonly MatrixCell[] }[], now: Date): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of services) {
    for (const c of s.cells) {
      const note = quietNote(c, now);
      if (note) out.set(`${s.name}\0${c.environment}`, note);
    }
  }
  return out;
}
