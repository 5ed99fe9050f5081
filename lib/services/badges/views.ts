// The state each badge of a service shows, from its matrix row and live drift.
import type { DriftKind } from "@/lib/domain/policy";
import { compareTags, jumpBetween } from "@/lib/domain/versions";
import { formatAge } from "@/lib/domain/words";
import { badgeLabel } from "@/lib/render/badge";
import { explainBadgeState, worstBadgeState, type BadgeRule, type BadgeState, type VersionJump } from "@/lib/render/badge-state";
import type { getMatrix } from "../matrix/get";

export type BadgeView = {
  environment: string | null;
  label: string;
  /** The running version as the matrix shows it (`1.27 = 1.27.3`), or "" when none is known. */
  version: string;
  state: BadgeState;
  rule: BadgeRule | null;
  note: string | null;
};

export type Row = Awaited<ReturnType<typeof getMatrix>>["services"][number];

export type LiveDrift = { environment: string; kind: DriftKind; state: "open" | "announced" };

function upstreamJump(version: string | null, newest: string | null): VersionJump | null {
  if (!version || !newest || (compareTags(newest, version) ?? 0) <= 0) return null;
  return jumpBetween(version, newest);
}

/** The badge for each environment the service runs in, and for all of them (environment null, first). */
/** A quiet cell's version says so, with its last report's age: `2.5.0, quiet 3 hours`. */
function shownVersion(cell: Row["cells"][number], now: Date): string {
  if (!cell.version) return "";
  if (!cell.quiet) return cell.display;
  const age = cell.last_seen_at ? ` ${formatAge(now.getTime() - new Date(cell.last_seen_at).getTime()).split(" ").slice(0, 2).join(" ")}` : "";
  return `${cell.display}, quiet${age}`;
}

export function badgeViews(row: Row, drifts: readonly LiveDrift[], environments: readonly { name: string; production: boolean }[], now: Date): BadgeView[] {
  const perEnv: BadgeView[] = row.cells.map((cell) => {
    const explained = explainBadgeState({
      hasVersion: cell.version !== null,
      quiet: cell.quiet,
      drifts: drifts.filter((d) => d.environment === cell.environment).map((d) => ({ kind: d.kind, state: d.state })),
      eolState: cell.eol?.state ?? null,
      upstreamJump: upstreamJump(cell.version, row.upstream.newest),
      upstreamState: row.upstream.state,
    });
    return { environment: cell.environment, label: badgeLabel(row.name, cell.environment), version: shownVersion(cell, now), ...explained };
  });
  // All environments: the most severe state; the version of production, else of the last environment in the pipeline.
  const production = row.cells.filter((c) => environments.find((e) => e.name === c.environment)?.production);
  const shown = (production.length ? production : row.cells).at(-1);
  const worst = worstBadgeState(perEnv.map((b) => b.state));
  const deciding = perEnv.find((b) => b.state === worst) ?? null;
  const all: BadgeView = {
    environment: null,
    label: badgeLabel(row.name, null),
    version: shown ? shownVersion(shown, now) : "",
    state: worst,
    rule: deciding?.rule ?? null,
    note: deciding?.note ?? null,
  };
  return [all, ...perEnv];
}
